// SPDX-License-Identifier: GPL-2.0
/* fx_bkl: a running total, returned to where it started. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_bkl.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_INOUT("fx_bkl", FX_BKL_ADD, "valid", FX_LIT(__s64, 40), FX_LIT(__s64, 40), 0),
	FX_INOUT("fx_bkl", FX_BKL_ADD, "invalid", FX_LIT(__s64, 0), NULL, EINVAL),
	FX_BADPTR("fx_bkl", FX_BKL_ADD),
	FX_OUTPUT("fx_bkl", FX_BKL_GET, "valid", FX_LIT(__s64, 40)),
	FX_BADPTR("fx_bkl", FX_BKL_GET),
	FX_INOUT("fx_bkl", FX_BKL_ADD, "restore", FX_LIT(__s64, -40), FX_LIT(__s64, 0), 0),
	FX_UNKNOWN("fx_bkl", _IO('k', 0x7f), ENOTTY),
};

FX_SUITE(fx_bkl, cases, NULL);
