// SPDX-License-Identifier: GPL-2.0
/*
 * fx_bkl: a running total.  The update path takes lock_kernel() itself, as
 * drivers did whose data was also reached from paths the VFS did not lock;
 * under the VFS's BKL this nests, since the BKL is recursive.
 *
 * Point: a handler that takes the BKL itself.  A conversion must keep the
 * nesting balanced, and must not take it for a mutex it invented.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#include <fixture/fx_bkl.h>
#include "fixture_observer.h"

static s64 fx_bkl_total;

static int fx_bkl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	s64 __user *argp = (s64 __user *)arg;
	s64 delta, total;

	fixture_observe(inode);
	switch (cmd) {
	case FX_BKL_ADD:
		if (get_user(delta, argp))
			return -EFAULT;
		if (!delta)
			return -EINVAL;
		lock_kernel();
		fx_bkl_total += delta;
		total = fx_bkl_total;
		unlock_kernel();
		return put_user(total, argp);
	case FX_BKL_GET:
		return put_user(fx_bkl_total, argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_bkl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_bkl_ioctl,
};

static struct miscdevice fx_bkl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_bkl",
	.fops	= &fx_bkl_fops,
};
module_misc_device(fx_bkl_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl that takes the BKL itself");
MODULE_LICENSE("GPL");
