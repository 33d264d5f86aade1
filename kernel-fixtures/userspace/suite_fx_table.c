// SPDX-License-Identifier: GPL-2.0
/* fx_table: entries set and read while claimed through the chip's operations. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_table.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_table", FX_TABLE_SET, "valid",
	      FX_LIT(struct fx_table_entry, .index = 2, .value = 40), 0),
	FX_IN("fx_table", FX_TABLE_SET, "invalid",
	      FX_LIT(struct fx_table_entry, .index = FX_TABLE_SIZE, .value = 1), EINVAL),
	FX_BADPTR("fx_table", FX_TABLE_SET),
	FX_INOUT("fx_table", FX_TABLE_GET, "valid",
		 FX_LIT(struct fx_table_entry, .index = 2),
		 FX_LIT(struct fx_table_entry, .index = 2, .value = 40), 0),
	FX_BADPTR("fx_table", FX_TABLE_GET),
	FX_UNKNOWN("fx_table", _IO('T', 0x7f), ENOTTY),
};

FX_SUITE(fx_table, cases, NULL);
