/*
 * adv_fsx_ioctl: the ioctl.c of a small filesystem: the handler is here,
 * its fops in adv_fsx_file.c.
 * Shape: the ext2/ext3 class: declarations that call a function of the
 * module (FSX_I(inode)) and read the flags it returns, before any lock
 * could be taken.
 */
#include <linux/fs.h>
#include <asm/uaccess.h>
#include "adv_fsx.h"

struct fsx_inode_info fsx_info;

struct fsx_inode_info *FSX_I(struct inode *inode)
{
	return &fsx_info;
}

int fsx_ioctl(struct inode *inode, struct file *filp, unsigned int cmd,
	      unsigned long arg)
{
	struct fsx_inode_info *ei = FSX_I(inode);
	unsigned long flags = ei->flags;

	switch (cmd) {
	case FSX_GETFLAGS:
		return put_user(flags, (long __user *)arg);
	case FSX_SETFLAGS: {
		long newflags;

		if (get_user(newflags, (long __user *)arg))
			return -EFAULT;
		ei->flags = (flags & ~0xffUL) | (newflags & 0xff);
		ei->generation++;
		return ei->generation;
	}
	default:
		return -ENOTTY;
	}
}
