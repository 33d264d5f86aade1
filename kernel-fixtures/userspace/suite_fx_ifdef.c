// SPDX-License-Identifier: GPL-2.0
/* fx_ifdef: set then clear leaves 0x00f0 whatever the mask held before. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_ifdef.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_ifdef", FX_IFDEF_SET_BITS, "valid", FX_LIT(__u32, 0x00f0), 0),
	FX_IN("fx_ifdef", FX_IFDEF_SET_BITS, "invalid",
	      FX_LIT(__u32, FX_IFDEF_VALID_BITS + 1), EINVAL),
	FX_BADPTR("fx_ifdef", FX_IFDEF_SET_BITS),
	FX_IN("fx_ifdef", FX_IFDEF_CLEAR_BITS, "valid", FX_LIT(__u32, 0xff0f), 0),
	FX_IN("fx_ifdef", FX_IFDEF_CLEAR_BITS, "invalid",
	      FX_LIT(__u32, FX_IFDEF_VALID_BITS + 1), EINVAL),
	FX_BADPTR("fx_ifdef", FX_IFDEF_CLEAR_BITS),
	FX_OUTPUT("fx_ifdef", FX_IFDEF_GET_BITS, "valid", FX_LIT(__u32, 0x00f0)),
	FX_BADPTR("fx_ifdef", FX_IFDEF_GET_BITS),
	FX_UNKNOWN("fx_ifdef", _IO('i', 0x7f), ENOTTY),
};

FX_SUITE(fx_ifdef, cases, NULL);
