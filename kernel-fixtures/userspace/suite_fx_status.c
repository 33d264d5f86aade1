// SPDX-License-Identifier: GPL-2.0
/* fx_status: errors returned through an unsigned ret reach userspace as errno. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_status.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_status", FX_STATUS_SET, "valid", FX_LIT(__u32, 5), 0),
	FX_IN("fx_status", FX_STATUS_SET, "invalid", FX_LIT(__u32, FX_STATUS_MAX + 1), EINVAL),
	FX_BADPTR("fx_status", FX_STATUS_SET),
	FX_OUTPUT("fx_status", FX_STATUS_GET, "valid", FX_LIT(__u32, 5)),
	FX_BADPTR("fx_status", FX_STATUS_GET),
	FX_OUTPUT("fx_status", FX_STATUS_GET_COPY, "valid", FX_LIT(__u32, 5)),
	FX_BADPTR("fx_status", FX_STATUS_GET_COPY),
	FX_UNKNOWN("fx_status", _IO('U', 0x7f), ENOTTY),
};

FX_SUITE(fx_status, cases, NULL);
