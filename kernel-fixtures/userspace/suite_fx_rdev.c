// SPDX-License-Identifier: GPL-2.0
/* fx_rdev: a mode per unit, read back through both of its query commands. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_rdev.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_NONE("fx_rdev0", FX_RDEV_RESET, "valid", 0),
	FX_NONE("fx_rdev1", FX_RDEV_RESET, "valid", 0),
	FX_VALUE("fx_rdev0", FX_RDEV_SET_MODE, "valid", 2, 0),
	FX_VALUE("fx_rdev1", FX_RDEV_SET_MODE, "valid", 3, 0),
	FX_VALUE("fx_rdev0", FX_RDEV_SET_MODE, "invalid", FX_RDEV_MODE_MAX + 1, EINVAL),
	FX_OUTPUT("fx_rdev0", FX_RDEV_GET_MODE, "valid", FX_LIT(__u32, 2)),
	FX_OUTPUT("fx_rdev1", FX_RDEV_GET_MODE, "valid", FX_LIT(__u32, 3)),
	FX_BADPTR("fx_rdev0", FX_RDEV_GET_MODE),
	FX_OUTPUT("fx_rdev1", FX_RDEV_GET_INFO, "valid",
		  FX_LIT(struct fx_rdev_info, 1, 3, FX_RDEV_MODE_MAX + 1, 0)),
	FX_BADPTR("fx_rdev1", FX_RDEV_GET_INFO),
	FX_UNKNOWN("fx_rdev0", _IO('r', 0x7f), ENOTTY),
};

FX_SUITE(fx_rdev, cases, NULL);
