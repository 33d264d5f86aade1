/* SPDX-License-Identifier: GPL-2.0 */
/* fx_parent: its handler, which fx_climb calls about another inode. */
#ifndef _FX_PARENT_H
#define _FX_PARENT_H

struct file;
struct inode;

int fx_parent_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg);

#endif /* _FX_PARENT_H */
