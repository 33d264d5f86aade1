// SPDX-License-Identifier: GPL-2.0
/* fx_pair: one total, added to through fx_pair and cleared through fx_pair_ctl. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_pair.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_NONE("fx_pair_ctl", FX_PAIR_CTL_CLEAR, "valid", 0),
	FX_IN("fx_pair", FX_PAIR_ADD, "valid", FX_LIT(__u32, 40), 0),
	FX_IN("fx_pair", FX_PAIR_ADD, "invalid", FX_LIT(__u32, FX_PAIR_ADD_MAX + 1), EINVAL),
	FX_BADPTR("fx_pair", FX_PAIR_ADD),
	FX_OUTPUT("fx_pair", FX_PAIR_TOTAL, "valid", FX_LIT(__u32, 40)),
	FX_BADPTR("fx_pair", FX_PAIR_TOTAL),
	FX_OUTPUT("fx_pair_ctl", FX_PAIR_CTL_TOTAL, "valid", FX_LIT(__u32, 40)),
	FX_BADPTR("fx_pair_ctl", FX_PAIR_CTL_TOTAL),
	FX_NONE("fx_pair_ctl", FX_PAIR_CTL_CLEAR, "again", 0),
	FX_OUTPUT("fx_pair", FX_PAIR_TOTAL, "cleared", FX_LIT(__u32, 0)),
	FX_UNKNOWN("fx_pair", _IO('v', 0x7f), ENOTTY),
	FX_UNKNOWN("fx_pair_ctl", _IO('v', 0x7f), ENOTTY),
};

FX_SUITE(fx_pair, cases, NULL);
