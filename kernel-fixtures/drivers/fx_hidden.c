// SPDX-License-Identifier: GPL-2.0
/*
 * fx_hidden: a board value, set and read only while the board is powered.
 *
 * Point: returns hidden in lower-case statement macros of a tree header,
 * <linux/fx_hidden.h> (kernel-fixtures/shims/new), which a conversion of
 * the driver directory cannot read: fx_hidden_need_power() in a do/while,
 * fx_hidden_check_range() as a bare if.  A pushed-down lock would be
 * held on those returns; auto must take the wrapper, and pushdown refuse.
 */
#include <linux/fs.h>
#include <linux/fx_hidden.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_hidden.h>
#include "fixture_observer.h"

struct fx_hidden_dev {
	int powered;
	u32 value;
};

static struct fx_hidden_dev fx_hidden_dev;

static int fx_hidden_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	struct fx_hidden_dev *dev = &fx_hidden_dev;
	u32 __user *argp = (u32 __user *)arg;
	u32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_HIDDEN_POWER:
		if (get_user(value, argp))
			return -EFAULT;
		dev->powered = value != 0;
		return 0;
	case FX_HIDDEN_SET:
		fx_hidden_need_power(dev);
		if (get_user(value, argp))
			return -EFAULT;
		fx_hidden_check_range(value);
		dev->value = value;
		return 0;
	case FX_HIDDEN_GET:
		fx_hidden_need_power(dev);
		return put_user(dev->value, argp) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_hidden_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_hidden_ioctl,
};

static struct miscdevice fx_hidden_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_hidden",
	.fops	= &fx_hidden_fops,
};
module_misc_device(fx_hidden_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl with returns hidden in macros of a tree header");
MODULE_LICENSE("GPL");
