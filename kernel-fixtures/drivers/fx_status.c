// SPDX-License-Identifier: GPL-2.0
/*
 * fx_status: a status word.  The handler keeps its result in an
 * "unsigned int ret" and returns -EFAULT, -EINVAL and -ENOTTY through it;
 * one command returns "copy_to_user(...) ? -EFAULT : 0" directly.
 *
 * Point: the legacy int handler returned (int)ret, a negative errno.  A
 * long handler that returns the unsigned ret as it is, or evaluates the
 * direct return into it, gives 64-bit callers 4294967282, not -EFAULT.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_status.h>
#include "fixture_observer.h"

static u32 fx_status_word;

static int fx_status_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	u32 __user *argp = (u32 __user *)arg;
	unsigned int ret = 0;
	u32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_STATUS_SET:
		if (get_user(value, argp))
			ret = -EFAULT;
		else if (value > FX_STATUS_MAX)
			ret = -EINVAL;
		else
			fx_status_word = value;
		break;
	case FX_STATUS_GET:
		if (put_user(fx_status_word, argp))
			ret = -EFAULT;
		break;
	case FX_STATUS_GET_COPY:
		return copy_to_user(argp, &fx_status_word, sizeof(fx_status_word)) ?
			-EFAULT : 0;
	default:
		ret = -ENOTTY;
		break;
	}
	return ret;
}

static const struct file_operations fx_status_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_status_ioctl,
};

static struct miscdevice fx_status_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_status",
	.fops	= &fx_status_fops,
};
module_misc_device(fx_status_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl returning errors through an unsigned ret");
MODULE_LICENSE("GPL");
