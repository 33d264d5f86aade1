// SPDX-License-Identifier: GPL-2.0
/*
 * fx_split: the ioctl half, a stack of FX_SPLIT_DEPTH_MAX values.
 *
 * Point: the handler is defined here and its fops in fx_split_main.c, with
 * the prototype in fx_split.h.  A conversion must change all three, and
 * this file alone does not show that fx_split_ioctl is an ioctl handler.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

#include <fixture/fx_split.h>
#include "fixture_observer.h"
#include "fx_split.h"

static u32 fx_split_stack[FX_SPLIT_DEPTH_MAX];
static unsigned int fx_split_depth;

int fx_split_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	u32 __user *argp = (u32 __user *)arg;
	u32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_SPLIT_PUSH:
		if (get_user(value, argp))
			return -EFAULT;
		if (fx_split_depth == FX_SPLIT_DEPTH_MAX)
			return -ENOSPC;
		fx_split_stack[fx_split_depth++] = value;
		return 0;
	case FX_SPLIT_POP:
		if (!fx_split_depth)
			return -ENODATA;
		if (put_user(fx_split_stack[fx_split_depth - 1], argp))
			return -EFAULT;
		fx_split_depth--;
		return 0;
	case FX_SPLIT_DEPTH:
		return put_user(fx_split_depth, argp);
	default:
		return -ENOTTY;
	}
}
