/* SPDX-License-Identifier: GPL-2.0 */
/* fx_relay: what the relay core offers the other drivers of its subsystem. */
#ifndef _FX_RELAY_H
#define _FX_RELAY_H

struct file;
struct inode;

extern int fx_relay_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg);

#endif /* _FX_RELAY_H */
