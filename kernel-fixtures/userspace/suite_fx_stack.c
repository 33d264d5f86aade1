// SPDX-License-Identifier: GPL-2.0
/* fx_stack: the lower register, set and read directly and through the stack. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_stack.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_lower", FX_LOWER_SET, "valid", FX_LIT(__u32, 17), 0),
	FX_IN("fx_lower", FX_LOWER_SET, "invalid", FX_LIT(__u32, FX_LOWER_REG_MAX + 1), EINVAL),
	FX_BADPTR("fx_lower", FX_LOWER_SET),
	FX_OUTPUT("fx_lower", FX_LOWER_GET, "valid", FX_LIT(__u32, 17)),
	FX_BADPTR("fx_lower", FX_LOWER_GET),
	FX_UNKNOWN("fx_lower", _IO('d', 0x7f), ENOTTY),
	/* fx_stack's own command. */
	FX_OUTPUT("fx_stack", FX_STACK_DEPTH, "valid", FX_LIT(__u32, 1)),
	FX_BADPTR("fx_stack", FX_STACK_DEPTH),
	/* Forwarded: lower->f_op->ioctl(inode, file, cmd, arg). */
	FX_OUTPUT("fx_stack", FX_LOWER_GET, "forwarded", FX_LIT(__u32, 17)),
	FX_IN("fx_stack", FX_LOWER_SET, "forwarded", FX_LIT(__u32, 99), 0),
	FX_IN("fx_stack", FX_LOWER_SET, "forwarded-invalid",
	      FX_LIT(__u32, FX_LOWER_REG_MAX + 1), EINVAL),
	/*
	 * Read back through the stack: a 32-bit caller reaches neither fx_stack
	 * (no .compat_ioctl: its commands are fx_lower's) nor, before the
	 * conversion, fx_lower, so what it reads may not depend on fx_lower
	 * gaining a .compat_ioctl.  FX_STACK_PEEK reads fx_lower's own file.
	 */
	FX_OUTPUT("fx_stack", FX_LOWER_GET, "stacked", FX_LIT(__u32, 99)),
	/* Forwarded with the lower file: (*lower->f_op->ioctl)(...). */
	FX_OUTPUT("fx_stack", FX_STACK_PEEK, "valid", FX_LIT(__u32, 99)),
	FX_BADPTR("fx_stack", FX_STACK_PEEK),
	/* Unknown to both: fx_lower's answer, forwarded. */
	FX_UNKNOWN("fx_stack", _IO('q', 0x7f), ENOTTY),
};

FX_SUITE(fx_stack, cases, NULL);
