// SPDX-License-Identifier: GPL-2.0
/* fx_proto: the value set is the value read back. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_proto.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_proto", FX_PROTO_SET, "valid", FX_LIT(__u32, 0x1234), 0),
	FX_IN("fx_proto", FX_PROTO_SET, "invalid",
	      FX_LIT(__u32, FX_PROTO_VALUE_MAX + 1), EINVAL),
	FX_BADPTR("fx_proto", FX_PROTO_SET),
	FX_OUTPUT("fx_proto", FX_PROTO_GET, "valid", FX_LIT(__u32, 0x1234)),
	FX_BADPTR("fx_proto", FX_PROTO_GET),
	FX_UNKNOWN("fx_proto", _IO('P', 0x7f), ENOTTY),
};

FX_SUITE(fx_proto, cases, NULL);
