// options: -D handlers=sub_ioctl -D inode_f_dentry
/*
 * Callers in another file of a handler converted there: each call loses
 * the inode argument, and a local that only fed that argument goes with
 * it, whichever way it reached the file's inode.  A local still used
 * after the call stays, and so does an inode parameter.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include "sub.h"

static long sub_compat_dentry(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;
	long ret;

	lock_kernel();
	ret = sub_ioctl(inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}

static long sub_compat_path(struct file *filp, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *ino = filp->f_path.dentry->d_inode;

	return sub_ioctl(ino, filp, cmd, arg);
}

static long sub_compat_helper(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	int flags = 0;
	struct inode *inode = file_inode(file);

	return sub_ioctl(inode, file, cmd, arg | flags);
}

static long sub_compat_unit(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;
	int unit = iminor(inode);

	return sub_ioctl(inode, file, cmd, arg) ? -EIO : unit;
}

int sub_relay(struct inode *inode, struct file *file, unsigned int cmd,
	      unsigned long arg)
{
	return sub_ioctl(inode, file, cmd, arg);
}
