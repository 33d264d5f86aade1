// SPDX-License-Identifier: GPL-2.0
/* fx_abi_clean: a structure both ABIs lay out alike, through user pointers. */
#include <errno.h>

#include <fixture/fx_abi_clean.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_abi_clean", FX_ABI_CLEAN_SET_WINDOW, "valid",
	      FX_LIT(struct fx_abi_window, 0x100, 0x200, 0x1122334455667788ULL), 0),
	FX_IN("fx_abi_clean", FX_ABI_CLEAN_SET_WINDOW, "invalid",
	      FX_LIT(struct fx_abi_window, FX_ABI_CLEAN_LIMIT, 1, 0), EINVAL),
	FX_BADPTR("fx_abi_clean", FX_ABI_CLEAN_SET_WINDOW),
	FX_OUTPUT("fx_abi_clean", FX_ABI_CLEAN_GET_WINDOW, "valid",
		  FX_LIT(struct fx_abi_window, 0x100, 0x200, 0x1122334455667788ULL)),
	FX_BADPTR("fx_abi_clean", FX_ABI_CLEAN_GET_WINDOW),
	FX_OUTPUT("fx_abi_clean", FX_ABI_CLEAN_GET_LIMIT, "valid",
		  FX_LIT(__u32, FX_ABI_CLEAN_LIMIT)),
	FX_BADPTR("fx_abi_clean", FX_ABI_CLEAN_GET_LIMIT),
	FX_UNKNOWN("fx_abi_clean", _IO('K', 0x7f), ENOTTY),
};

FX_SUITE(fx_abi_clean, cases, NULL);
