// SPDX-License-Identifier: GPL-2.0
/* fx_twin: one handler behind two nodes; each node must be told apart by its inode. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_twin.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_twin_ctl", FX_TWIN_IDENTIFY, "valid", FX_LIT(__u32, FX_TWIN_CTL)),
	FX_OUTPUT("fx_twin_status", FX_TWIN_IDENTIFY, "valid",
		  FX_LIT(__u32, FX_TWIN_STATUS)),
	FX_BADPTR("fx_twin_ctl", FX_TWIN_IDENTIFY),
	FX_IN("fx_twin_ctl", FX_TWIN_SET_SHARED, "valid", FX_LIT(__s32, 42), 0),
	FX_IN("fx_twin_ctl", FX_TWIN_SET_SHARED, "invalid", FX_LIT(__s32, -1), EINVAL),
	FX_IN("fx_twin_status", FX_TWIN_SET_SHARED, "readonly", FX_LIT(__s32, 7), EPERM),
	FX_BADPTR("fx_twin_ctl", FX_TWIN_SET_SHARED),
	FX_OUTPUT("fx_twin_status", FX_TWIN_GET_SHARED, "valid", FX_LIT(__s32, 42)),
	FX_OUTPUT("fx_twin_ctl", FX_TWIN_GET_SHARED, "valid", FX_LIT(__s32, 42)),
	FX_BADPTR("fx_twin_status", FX_TWIN_GET_SHARED),
	FX_UNKNOWN("fx_twin_status", _IO('t', 0x7f), ENOTTY),
};

FX_SUITE(fx_twin, cases, NULL);
