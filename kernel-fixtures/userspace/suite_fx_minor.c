// SPDX-License-Identifier: GPL-2.0
/* fx_minor: each minor keeps its own value, so a wrong inode reads the other one. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_minor.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_minor0", FX_MINOR_GET_UNIT, "valid", FX_LIT(__u32, 0)),
	FX_OUTPUT("fx_minor1", FX_MINOR_GET_UNIT, "valid", FX_LIT(__u32, 1)),
	FX_BADPTR("fx_minor0", FX_MINOR_GET_UNIT),
	FX_IN("fx_minor0", FX_MINOR_SET_VALUE, "valid", FX_LIT(__u32, 0x1111), 0),
	FX_IN("fx_minor1", FX_MINOR_SET_VALUE, "valid", FX_LIT(__u32, 0x2222), 0),
	FX_IN("fx_minor0", FX_MINOR_SET_VALUE, "invalid",
	      FX_LIT(__u32, FX_MINOR_VALUE_MAX + 1), EINVAL),
	FX_BADPTR("fx_minor0", FX_MINOR_SET_VALUE),
	FX_OUTPUT("fx_minor0", FX_MINOR_GET_VALUE, "valid", FX_LIT(__u32, 0x1111)),
	FX_OUTPUT("fx_minor1", FX_MINOR_GET_VALUE, "valid", FX_LIT(__u32, 0x2222)),
	FX_BADPTR("fx_minor1", FX_MINOR_GET_VALUE),
	FX_UNKNOWN("fx_minor0", _IO('m', 0x7f), ENOTTY),
};

FX_SUITE(fx_minor, cases, NULL);
