// SPDX-License-Identifier: GPL-2.0
/*
 * baro: a misc device written the way check wants: .unlocked_ioctl with
 * its own lock, and .compat_ioctl for 32-bit processes.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define BARO_GET	_IOR('b', 1, int)

static DEFINE_MUTEX(baro_lock);
static int baro_value;

static long baro_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int __user *p = (int __user *)arg;
	long ret;

	mutex_lock(&baro_lock);
	switch (cmd) {
	case BARO_GET:
		ret = put_user(baro_value, p);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&baro_lock);
	return ret;
}

static const struct file_operations baro_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= baro_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static struct miscdevice baro_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "baro",
	.fops	= &baro_fops,
};

static int __init baro_init(void)
{
	return misc_register(&baro_dev);
}
module_init(baro_init);
MODULE_LICENSE("GPL");
