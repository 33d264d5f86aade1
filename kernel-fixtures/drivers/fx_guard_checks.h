/* SPDX-License-Identifier: GPL-2.0 */
/* fx_guard's checks, kept in the driver's own header as drivers of the time did. */
#ifndef _FX_GUARD_CHECKS_H
#define _FX_GUARD_CHECKS_H

/* Leaves the ioctl handler unless the device is armed. */
#define FX_GUARD_NEED_ARMED	if (!dev->armed) return -EPERM

#endif /* _FX_GUARD_CHECKS_H */
