// SPDX-License-Identifier: GPL-2.0
/* fx_fed: has a compat_ioctl, so 32-bit callers reach every command. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_fed.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_fed", FX_FED_SET, "valid", FX_LIT(__u32, 0xfeed), 0),
	FX_BADPTR("fx_fed", FX_FED_SET),
	FX_OUTPUT("fx_fed", FX_FED_GET, "valid", FX_LIT(__u32, 0xfeed)),
	FX_BADPTR("fx_fed", FX_FED_GET),
	FX_UNKNOWN("fx_fed", _IO('F', 0x7f), ENOTTY),
};

static const unsigned long compat32[] = { FX_ALL_COMMANDS, 0 };

FX_SUITE(fx_fed, cases, compat32);
