// SPDX-License-Identifier: GPL-2.0
/*
 * fx_fed: a stored word, whose layout is the same for 32-bit callers.
 *
 * Point: the compat_ioctl looks up the inode into a local only to pass it
 * to the legacy handler.  When the call loses that argument, the local
 * must go with it, or the build warns "unused variable 'inode'".
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#include <fixture/fx_fed.h>
#include "fixture_observer.h"

static u32 fx_fed_word;

static int fx_fed_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	u32 __user *argp = (u32 __user *)arg;

	fixture_observe(inode);
	switch (cmd) {
	case FX_FED_SET:
		return get_user(fx_fed_word, argp);
	case FX_FED_GET:
		return put_user(fx_fed_word, argp);
	default:
		return -ENOTTY;
	}
}

static long fx_fed_compat_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;
	int ret;

	lock_kernel();
	ret = fx_fed_ioctl(inode, file, cmd, (unsigned long)compat_ptr(arg));
	unlock_kernel();
	return ret;
}

static const struct file_operations fx_fed_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= fx_fed_ioctl,
	.compat_ioctl	= fx_fed_compat_ioctl,
};

static struct miscdevice fx_fed_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_fed",
	.fops	= &fx_fed_fops,
};
module_misc_device(fx_fed_misc);

MODULE_DESCRIPTION("Fixture: compat_ioctl whose inode local only feeds the legacy handler");
MODULE_LICENSE("GPL");
