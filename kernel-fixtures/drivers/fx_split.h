/* SPDX-License-Identifier: GPL-2.0 */
/* fx_split: the handler lives in fx_split_ioctl.c, its fops in fx_split_main.c. */
#ifndef _FX_SPLIT_H
#define _FX_SPLIT_H

struct file;
struct inode;

int fx_split_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg);

#endif /* _FX_SPLIT_H */
