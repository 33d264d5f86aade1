// SPDX-License-Identifier: GPL-2.0
/* fx_abi_level: integer arguments only; reset first, so both programs see the same level. */
#include <errno.h>

#include <fixture/fx_abi_level.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_NONE("fx_abi_level", FX_ABI_LEVEL_RESET, "valid", 0),
	FX_VALUE("fx_abi_level", FX_ABI_LEVEL_EXPECT, "zero", 0, 0),
	FX_VALUE("fx_abi_level", FX_ABI_LEVEL_SET, "valid", 42, 0),
	FX_VALUE("fx_abi_level", FX_ABI_LEVEL_SET, "invalid", FX_ABI_LEVEL_MAX + 1, EINVAL),
	FX_VALUE("fx_abi_level", FX_ABI_LEVEL_SET, "high", 0x80000000UL, EINVAL),
	FX_VALUE("fx_abi_level", FX_ABI_LEVEL_EXPECT, "valid", 42, 0),
	FX_VALUE("fx_abi_level", FX_ABI_LEVEL_EXPECT, "other", 41, ERANGE),
	FX_UNKNOWN("fx_abi_level", _IO('L', 0x7f), ENOTTY),
};

FX_SUITE(fx_abi_level, cases, NULL);
