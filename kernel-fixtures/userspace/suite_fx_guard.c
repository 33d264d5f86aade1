// SPDX-License-Identifier: GPL-2.0
/* fx_guard: setting the value leaves through the header's macro unless armed. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_guard.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_guard", FX_GUARD_SET_VALUE, "disarmed", FX_LIT(__u32, 7), EPERM),
	FX_NONE("fx_guard", FX_GUARD_ARM, "valid", 0),
	FX_IN("fx_guard", FX_GUARD_SET_VALUE, "armed", FX_LIT(__u32, 7), 0),
	FX_BADPTR("fx_guard", FX_GUARD_SET_VALUE),
	FX_OUTPUT("fx_guard", FX_GUARD_GET_VALUE, "valid", FX_LIT(__u32, 7)),
	FX_BADPTR("fx_guard", FX_GUARD_GET_VALUE),
	FX_NONE("fx_guard", FX_GUARD_DISARM, "valid", 0),
	FX_IN("fx_guard", FX_GUARD_SET_VALUE, "disarmed-again", FX_LIT(__u32, 8), EPERM),
	FX_UNKNOWN("fx_guard", _IO('A', 0x7f), ENOTTY),
};

FX_SUITE(fx_guard, cases, NULL);
