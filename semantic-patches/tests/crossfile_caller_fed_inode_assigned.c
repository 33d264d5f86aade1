// options: -D handlers=sub_ioctl -D inode_f_dentry
/*
 * Callers in another file of a handler converted there, whose inode local
 * is set by a statement rather than an initializer: the statement and the
 * declaration go with the argument, whichever way it reached the inode,
 * or the local would be set but not used.  A local still used after the
 * call stays, with its statement.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include "sub.h"

static long sub_compat_dentry(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct inode *inode;
	long ret;

	inode = file->f_dentry->d_inode;
	lock_kernel();
	ret = sub_ioctl(inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}

static long sub_compat_path(struct file *filp, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *ino;

	ino = filp->f_path.dentry->d_inode;
	return sub_ioctl(ino, filp, cmd, arg);
}

static long sub_compat_unit(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *inode;

	inode = file->f_dentry->d_inode;
	return sub_ioctl(inode, file, cmd, arg) ? -EIO : iminor(inode);
}
