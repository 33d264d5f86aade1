// SPDX-License-Identifier: GPL-2.0
/* fx_wait: a letter posted, taken, and taken while another task posts it. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_wait.h>
#include "ioctl_test.h"

/* The call another task makes while "woken" sleeps in FX_WAIT_TAKE. */
static const struct fx_case post_meanwhile =
	FX_IN("fx_wait", FX_WAIT_POST, "meanwhile", FX_LIT(__u32, 42), 0);

static const struct fx_case cases[] = {
	FX_IN("fx_wait", FX_WAIT_POST, "invalid", FX_LIT(__u32, 0), EINVAL),
	FX_BADPTR("fx_wait", FX_WAIT_POST),
	FX_IN("fx_wait", FX_WAIT_POST, "valid", FX_LIT(__u32, 7), 0),
	/* A letter is waiting, so neither of these sleeps. */
	FX_BADPTR("fx_wait", FX_WAIT_TAKE),
	FX_OUTPUT("fx_wait", FX_WAIT_TAKE, "valid", FX_LIT(__u32, 7)),
	/* The mailbox is empty: the call sleeps until the other task posts. */
	{ "fx_wait", "FX_WAIT_TAKE", "woken", FX_WAIT_TAKE, FX_ARG_BUF,
	  .size = sizeof(__u32), .expect = FX_LIT(__u32, 42), .flags = FX_OUT,
	  .meanwhile = &post_meanwhile },
	FX_UNKNOWN("fx_wait", _IO('w', 0x7f), ENOTTY),
};

FX_SUITE(fx_wait, cases, NULL);
