// SPDX-License-Identifier: GPL-2.0
/* fx_split: fills and empties its stack, so every run starts it empty. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_split.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_split", FX_SPLIT_DEPTH, "empty", FX_LIT(__u32, 0)),
	FX_IN("fx_split", FX_SPLIT_PUSH, "valid", FX_LIT(__u32, 0xa1), 0),
	FX_IN("fx_split", FX_SPLIT_PUSH, "second", FX_LIT(__u32, 0xb2), 0),
	FX_IN("fx_split", FX_SPLIT_PUSH, "full", FX_LIT(__u32, 0xc3), ENOSPC),
	FX_BADPTR("fx_split", FX_SPLIT_PUSH),
	FX_OUTPUT("fx_split", FX_SPLIT_DEPTH, "valid", FX_LIT(__u32, FX_SPLIT_DEPTH_MAX)),
	FX_BADPTR("fx_split", FX_SPLIT_DEPTH),
	FX_OUTPUT("fx_split", FX_SPLIT_POP, "valid", FX_LIT(__u32, 0xb2)),
	FX_BADPTR("fx_split", FX_SPLIT_POP),
	FX_OUTPUT("fx_split", FX_SPLIT_POP, "second", FX_LIT(__u32, 0xa1)),
	{ "fx_split", "FX_SPLIT_POP", "empty", FX_SPLIT_POP, FX_ARG_BUF,
	  .size = sizeof(__u32), .err = ENODATA, .flags = FX_OUT },
	FX_UNKNOWN("fx_split", _IO('s', 0x7f), ENOTTY),
};

FX_SUITE(fx_split, cases, NULL);
