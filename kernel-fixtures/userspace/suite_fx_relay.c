// SPDX-License-Identifier: GPL-2.0
/* fx_relay: the panel reaches the level through the relay core's handler. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_relay.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_VALUE("fx_relay", FX_RELAY_SET_LEVEL, "valid", 4, 0),
	FX_VALUE("fx_relay", FX_RELAY_SET_LEVEL, "invalid", FX_RELAY_LEVEL_MAX + 1, EINVAL),
	FX_OUTPUT("fx_relay", FX_RELAY_GET_LEVEL, "valid", FX_LIT(__u32, 4)),
	FX_BADPTR("fx_relay", FX_RELAY_GET_LEVEL),
	FX_VALUE("fx_relay_panel", FX_RELAY_PANEL_BLINK, "valid", 2, 0),
	FX_VALUE("fx_relay_panel", FX_RELAY_PANEL_BLINK, "invalid",
		 FX_RELAY_BLINK_MAX + 1, EINVAL),
	FX_VALUE("fx_relay_panel", FX_RELAY_SET_LEVEL, "valid", 7, 0),
	FX_OUTPUT("fx_relay_panel", FX_RELAY_GET_LEVEL, "valid", FX_LIT(__u32, 7)),
	FX_OUTPUT("fx_relay", FX_RELAY_GET_LEVEL, "panel", FX_LIT(__u32, 7)),
	FX_UNKNOWN("fx_relay", _IO('R', 0x7f), ENOTTY),
	FX_UNKNOWN("fx_relay_panel", _IO('R', 0x7f), ENOTTY),
};

FX_SUITE(fx_relay, cases, NULL);
