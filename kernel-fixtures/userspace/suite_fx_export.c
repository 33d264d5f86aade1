// SPDX-License-Identifier: GPL-2.0
/* fx_export: each user answers its own ping and passes the serial on. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_export.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_export", FX_EXPORT_GET_SERIAL, "valid", FX_LIT(__u32, FX_EXPORT_SERIAL)),
	FX_BADPTR("fx_export", FX_EXPORT_GET_SERIAL),
	FX_NONE("fx_export_a", FX_EXPORT_A_PING, "valid", 0),
	FX_NONE("fx_export_a", FX_EXPORT_B_PING, "other", ENOTTY),
	FX_OUTPUT("fx_export_a", FX_EXPORT_GET_SERIAL, "valid", FX_LIT(__u32, FX_EXPORT_SERIAL)),
	FX_NONE("fx_export_b", FX_EXPORT_B_PING, "valid", 0),
	FX_OUTPUT("fx_export_b", FX_EXPORT_GET_SERIAL, "valid", FX_LIT(__u32, FX_EXPORT_SERIAL)),
	FX_BADPTR("fx_export_b", FX_EXPORT_GET_SERIAL),
	FX_UNKNOWN("fx_export", _IO('X', 0x7f), ENOTTY),
};

FX_SUITE(fx_export, cases, NULL);
