// SPDX-License-Identifier: GPL-2.0
/*
 * fx_compat: stores a timestamp whose layout is the same for 32-bit and
 * 64-bit callers, so its compat_ioctl only converts the pointer and calls
 * the legacy handler, under lock_kernel() as the VFS would have.
 *
 * Point: a compat wrapper that calls the legacy handler with the inode and
 * the BKL.  After conversion the wrapper must call the new handler (or
 * become the native one) without taking the lock twice or losing it.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#include <fixture/fx_compat.h>
#include "fixture_observer.h"

static struct fx_compat_stamp fx_compat_stamp;

static int fx_compat_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct fx_compat_stamp stamp;

	fixture_observe(inode);
	switch (cmd) {
	case FX_COMPAT_SET_STAMP:
		if (copy_from_user(&stamp, argp, sizeof(stamp)))
			return -EFAULT;
		if (stamp.nsec >= NSEC_PER_SEC)
			return -EINVAL;
		fx_compat_stamp = stamp;
		return 0;
	case FX_COMPAT_GET_STAMP:
		if (copy_to_user(argp, &fx_compat_stamp, sizeof(fx_compat_stamp)))
			return -EFAULT;
		return 0;
	default:
		return -ENOTTY;
	}
}

static long fx_compat_compat_ioctl(struct file *file, unsigned int cmd,
				   unsigned long arg)
{
	int ret;

	lock_kernel();
	ret = fx_compat_ioctl(file->f_dentry->d_inode, file, cmd,
			      (unsigned long)compat_ptr(arg));
	unlock_kernel();
	return ret;
}

static const struct file_operations fx_compat_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= fx_compat_ioctl,
	.compat_ioctl	= fx_compat_compat_ioctl,
};

static struct miscdevice fx_compat_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_compat",
	.fops	= &fx_compat_fops,
};
module_misc_device(fx_compat_misc);

MODULE_DESCRIPTION("Fixture: compat_ioctl calling the legacy handler under the BKL");
MODULE_LICENSE("GPL");
