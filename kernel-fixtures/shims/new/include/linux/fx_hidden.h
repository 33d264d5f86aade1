/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/fx_hidden.h>: a header of the fixture kernel's tree, not of the
 * driver directory, for drivers/ioctl_fixtures/fx_hidden.c.
 *
 * Its statement macros return from the function that uses them, as many
 * 2.6-era subsystem headers' did.  A conversion run on the driver
 * directory alone never reads this file, so it must not push the lock
 * into a handler that uses them (default-deny: the wrapper, or a refusal).
 */
#ifndef _LINUX_FX_HIDDEN_H
#define _LINUX_FX_HIDDEN_H

#define FX_HIDDEN_VALUE_MAX	1000

/* Leaves the caller with -ENODEV while the board is powered down. */
#define fx_hidden_need_power(dev) \
	do { if (!(dev)->powered) return -ENODEV; } while (0)

/* Leaves the caller with -ERANGE for a value the board cannot hold. */
#define fx_hidden_check_range(value) \
	if ((value) > FX_HIDDEN_VALUE_MAX) return -ERANGE

#endif /* _LINUX_FX_HIDDEN_H */
