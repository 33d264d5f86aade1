// SPDX-License-Identifier: GPL-2.0
/* fx_compat: has a compat_ioctl, so 32-bit callers reach every command. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_compat.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_compat", FX_COMPAT_SET_STAMP, "valid",
	      FX_LIT(struct fx_compat_stamp, 1234567890, 500, 0), 0),
	FX_IN("fx_compat", FX_COMPAT_SET_STAMP, "invalid",
	      FX_LIT(struct fx_compat_stamp, 1, 1000000000, 0), EINVAL),
	FX_BADPTR("fx_compat", FX_COMPAT_SET_STAMP),
	FX_OUTPUT("fx_compat", FX_COMPAT_GET_STAMP, "valid",
		  FX_LIT(struct fx_compat_stamp, 1234567890, 500, 0)),
	FX_BADPTR("fx_compat", FX_COMPAT_GET_STAMP),
	FX_UNKNOWN("fx_compat", _IO('c', 0x7f), ENOTTY),
};

static const unsigned long compat32[] = { FX_ALL_COMMANDS, 0 };

FX_SUITE(fx_compat, cases, compat32);
