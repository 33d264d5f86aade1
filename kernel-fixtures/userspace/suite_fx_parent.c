// SPDX-License-Identifier: GPL-2.0
/* fx_parent: its node is no directory; the one fx_climb asks about is. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_parent.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_parent", FX_PARENT_IS_DIR, "valid", FX_LIT(__u32, 0)),
	FX_OUTPUT("fx_climb", FX_PARENT_IS_DIR, "directory", FX_LIT(__u32, 1)),
	FX_BADPTR("fx_parent", FX_PARENT_IS_DIR),
	FX_UNKNOWN("fx_parent", _IO('U', 0x7f), ENOTTY),
	FX_UNKNOWN("fx_climb", _IO('U', 0x7f), ENOTTY),
};

FX_SUITE(fx_parent, cases, NULL);
