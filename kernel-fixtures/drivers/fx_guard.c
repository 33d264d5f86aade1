// SPDX-License-Identifier: GPL-2.0
/*
 * fx_guard: a value that may only be set while the device is armed.  The
 * check is FX_GUARD_NEED_ARMED, an object-like macro of the driver's own
 * header that returns, as drivers of the time wrote NEED_ADMIN.
 *
 * Point: an exit that is not in the handler's text.  An unlock_kernel()
 * pushed down before the visible returns misses it, and the handler
 * returns to the VFS with the BKL held: the conversion must see it.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_guard.h>
#include "fixture_observer.h"
#include "fx_guard_checks.h"

static struct fx_guard_dev {
	int armed;
	u32 value;
} fx_guard_dev;

static int fx_guard_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct fx_guard_dev *dev = &fx_guard_dev;
	u32 __user *argp = (u32 __user *)arg;
	u32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_GUARD_ARM:
		dev->armed = 1;
		return 0;
	case FX_GUARD_DISARM:
		dev->armed = 0;
		return 0;
	case FX_GUARD_SET_VALUE:
		FX_GUARD_NEED_ARMED;
		if (get_user(value, argp))
			return -EFAULT;
		dev->value = value;
		return 0;
	case FX_GUARD_GET_VALUE:
		return put_user(dev->value, argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_guard_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_guard_ioctl,
};

static struct miscdevice fx_guard_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_guard",
	.fops	= &fx_guard_fops,
};
module_misc_device(fx_guard_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl leaving through a macro of its header");
MODULE_LICENSE("GPL");
