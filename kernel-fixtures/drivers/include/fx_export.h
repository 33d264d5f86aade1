/* SPDX-License-Identifier: GPL-2.0 */
/* fx_export: the board core's ioctl handler, exported to its drivers. */
#ifndef _FX_EXPORT_H
#define _FX_EXPORT_H

struct file;
struct inode;

int fx_export_ioctl(struct inode *, struct file *, unsigned int, unsigned long);

#endif /* _FX_EXPORT_H */
