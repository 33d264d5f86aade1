// SPDX-License-Identifier: GPL-2.0
/* fx_gnu: version and level; unknown commands are -EINVAL, as in old drivers. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_gnu.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_gnu", FX_GNU_GET_VERSION, "valid",
		  FX_LIT(struct fx_gnu_version, 2, 6, 11, 0)),
	FX_BADPTR("fx_gnu", FX_GNU_GET_VERSION),
	FX_IN("fx_gnu", FX_GNU_SET_LEVEL, "valid", FX_LIT(__u32, 5), 0),
	FX_IN("fx_gnu", FX_GNU_SET_LEVEL, "invalid",
	      FX_LIT(__u32, FX_GNU_LEVEL_MAX + 1), EINVAL),
	FX_BADPTR("fx_gnu", FX_GNU_SET_LEVEL),
	FX_OUTPUT("fx_gnu", FX_GNU_GET_LEVEL, "valid", FX_LIT(__u32, 5)),
	FX_BADPTR("fx_gnu", FX_GNU_GET_LEVEL),
	FX_UNKNOWN("fx_gnu", _IO('G', 0x7f), EINVAL),
};

FX_SUITE(fx_gnu, cases, NULL);
