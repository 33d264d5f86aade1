// SPDX-License-Identifier: GPL-2.0
/* fx_regs: the register file, including its read-only ID register. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_regs.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_regs", FX_REGS_COUNT, "valid", FX_LIT(__u32, FX_REGS_NR)),
	FX_BADPTR("fx_regs", FX_REGS_COUNT),
	FX_INOUT("fx_regs", FX_REGS_READ, "valid", FX_LIT(struct fx_reg, FX_REGS_ID, 0),
		 FX_LIT(struct fx_reg, FX_REGS_ID, FX_REGS_ID_VALUE), 0),
	FX_INOUT("fx_regs", FX_REGS_READ, "invalid", FX_LIT(struct fx_reg, FX_REGS_NR, 0),
		 NULL, EINVAL),
	FX_BADPTR("fx_regs", FX_REGS_READ),
	FX_IN("fx_regs", FX_REGS_WRITE, "valid", FX_LIT(struct fx_reg, 3, 0xdeadbeef), 0),
	FX_IN("fx_regs", FX_REGS_WRITE, "invalid",
	      FX_LIT(struct fx_reg, FX_REGS_NR + 1, 1), EINVAL),
	FX_IN("fx_regs", FX_REGS_WRITE, "readonly",
	      FX_LIT(struct fx_reg, FX_REGS_ID, 1), EPERM),
	FX_BADPTR("fx_regs", FX_REGS_WRITE),
	FX_INOUT("fx_regs", FX_REGS_READ, "readback", FX_LIT(struct fx_reg, 3, 0),
		 FX_LIT(struct fx_reg, 3, 0xdeadbeef), 0),
	FX_NONE("fx_regs", FX_REGS_CLEAR, "valid", 0),
	FX_INOUT("fx_regs", FX_REGS_READ, "cleared", FX_LIT(struct fx_reg, 3, 0),
		 FX_LIT(struct fx_reg, 3, 0), 0),
	FX_UNKNOWN("fx_regs", _IO('g', 0x7f), ENOTTY),
};

FX_SUITE(fx_regs, cases, NULL);
