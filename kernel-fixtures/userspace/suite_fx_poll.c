// SPDX-License-Identifier: GPL-2.0
/* fx_poll: a value armed and collected, and collected while another task arms it. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_poll.h>
#include "ioctl_test.h"

/* The calls another task makes while a case polls in the driver. */
static const struct fx_case arm_meanwhile =
	FX_IN("fx_poll", FX_POLL_ARM, "meanwhile", FX_LIT(__u32, 42), 0);
static const struct fx_case arm_again =
	FX_IN("fx_poll", FX_POLL_ARM, "again", FX_LIT(__u32, 9), 0);

static const struct fx_case cases[] = {
	FX_IN("fx_poll", FX_POLL_ARM, "invalid", FX_LIT(__u32, 0), EINVAL),
	FX_BADPTR("fx_poll", FX_POLL_ARM),
	FX_IN("fx_poll", FX_POLL_ARM, "valid", FX_LIT(__u32, 7), 0),
	/* Armed, so neither of these polls. */
	FX_NONE("fx_poll", FX_POLL_SETTLE, "valid", 0),
	FX_BADPTR("fx_poll", FX_POLL_COLLECT),
	FX_OUTPUT("fx_poll", FX_POLL_COLLECT, "valid", FX_LIT(__u32, 7)),
	/* Not armed: the helper's loop polls until the other task arms 9 ... */
	{ "fx_poll", "FX_POLL_SETTLE", "woken", FX_POLL_SETTLE, FX_ARG_NONE,
	  .meanwhile = &arm_again },
	/* ... which this collects without polling. */
	FX_OUTPUT("fx_poll", FX_POLL_COLLECT, "left", FX_LIT(__u32, 9)),
	/* Not armed: the handler's loop polls until the other task arms 42. */
	{ "fx_poll", "FX_POLL_COLLECT", "woken", FX_POLL_COLLECT, FX_ARG_BUF,
	  .size = sizeof(__u32), .expect = FX_LIT(__u32, 42), .flags = FX_OUT,
	  .meanwhile = &arm_meanwhile },
	FX_UNKNOWN("fx_poll", _IO('z', 0x7f), ENOTTY),
};

FX_SUITE(fx_poll, cases, NULL);
