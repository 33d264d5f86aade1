// SPDX-License-Identifier: GPL-2.0
/*
 * fx_lower: one register, the lower driver fx_stack.c stacks on.
 *
 * Point: an ordinary legacy .ioctl, converted in the same run as the
 * driver that calls it through its file's f_op; after that its .ioctl is
 * NULL and only ->unlocked_ioctl reaches it.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_stack.h>
#include "fixture_observer.h"

static u32 fx_lower_reg;

static int fx_lower_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	u32 __user *argp = (u32 __user *)arg;
	u32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_LOWER_SET:
		if (get_user(value, argp))
			return -EFAULT;
		if (value > FX_LOWER_REG_MAX)
			return -EINVAL;
		fx_lower_reg = value;
		return 0;
	case FX_LOWER_GET:
		return put_user(fx_lower_reg, argp) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_lower_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_lower_ioctl,
};

static struct miscdevice fx_lower_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_lower",
	.fops	= &fx_lower_fops,
};
module_misc_device(fx_lower_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl of a lower driver another one stacks on");
MODULE_LICENSE("GPL");
