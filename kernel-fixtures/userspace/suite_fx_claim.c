// SPDX-License-Identifier: GPL-2.0
/* fx_claim: the level, set and read while the device is claimed. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_claim.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_claim", FX_CLAIM_SET_LEVEL, "valid", FX_LIT(__u32, 50), 0),
	FX_IN("fx_claim", FX_CLAIM_SET_LEVEL, "invalid",
	      FX_LIT(__u32, FX_CLAIM_LEVEL_MAX + 1), EINVAL),
	FX_BADPTR("fx_claim", FX_CLAIM_SET_LEVEL),
	FX_OUTPUT("fx_claim", FX_CLAIM_GET_LEVEL, "valid", FX_LIT(__u32, 50)),
	FX_BADPTR("fx_claim", FX_CLAIM_GET_LEVEL),
	FX_UNKNOWN("fx_claim", _IO('l', 0x7f), ENOTTY),
};

FX_SUITE(fx_claim, cases, NULL);
