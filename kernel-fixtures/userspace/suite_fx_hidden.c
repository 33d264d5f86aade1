// SPDX-License-Identifier: GPL-2.0
/* fx_hidden: the value, refused while the board is off, set and read once on. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_hidden.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_hidden", FX_HIDDEN_POWER, "off", FX_LIT(__u32, 0), 0),
	/* The returns of fx_hidden_need_power(). */
	FX_IN("fx_hidden", FX_HIDDEN_SET, "off", FX_LIT(__u32, 5), ENODEV),
	{ "fx_hidden", "FX_HIDDEN_GET", "off", FX_HIDDEN_GET, FX_ARG_BUF,
	  .size = sizeof(__u32), .err = ENODEV, .flags = FX_OUT },
	FX_BADPTR("fx_hidden", FX_HIDDEN_POWER),
	FX_IN("fx_hidden", FX_HIDDEN_POWER, "valid", FX_LIT(__u32, 1), 0),
	FX_IN("fx_hidden", FX_HIDDEN_SET, "valid", FX_LIT(__u32, 500), 0),
	/* The return of fx_hidden_check_range(). */
	FX_IN("fx_hidden", FX_HIDDEN_SET, "invalid", FX_LIT(__u32, 1001), ERANGE),
	FX_BADPTR("fx_hidden", FX_HIDDEN_SET),
	FX_OUTPUT("fx_hidden", FX_HIDDEN_GET, "valid", FX_LIT(__u32, 500)),
	FX_BADPTR("fx_hidden", FX_HIDDEN_GET),
	FX_UNKNOWN("fx_hidden", _IO('h', 0x7f), ENOTTY),
};

FX_SUITE(fx_hidden, cases, NULL);
