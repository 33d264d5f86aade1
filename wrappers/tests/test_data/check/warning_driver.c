// SPDX-License-Identifier: GPL-2.0
/*
 * hygro: converted halfway. It has .unlocked_ioctl, but takes the BKL
 * itself, returns -ENOIOCTLCMD, and has no .compat_ioctl: every WARNING
 * check gives, and no ERROR.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#define HYGRO_GET	_IOR('h', 1, int)

static int hygro_value;

static long hygro_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int __user *p = (int __user *)arg;
	long ret;

	lock_kernel();
	switch (cmd) {
	case HYGRO_GET:
		ret = put_user(hygro_value, p);
		break;
	default:
		ret = -ENOIOCTLCMD;
	}
	unlock_kernel();
	return ret;
}

static const struct file_operations hygro_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= hygro_ioctl,
};

static struct miscdevice hygro_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "hygro",
	.fops	= &hygro_fops,
};

static int __init hygro_init(void)
{
	return misc_register(&hygro_dev);
}
module_init(hygro_init);
MODULE_LICENSE("GPL");
