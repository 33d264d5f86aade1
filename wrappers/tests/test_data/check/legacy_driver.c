// SPDX-License-Identifier: GPL-2.0
/*
 * thermo: a misc device that reports a sensor, written the 2.6.9 way.
 * It is what check must refuse: a new driver with a legacy .ioctl.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define THERMO_GET	_IOR('t', 1, int)
#define THERMO_SET	_IOW('t', 2, int)

static int thermo_value;

static int thermo_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	int __user *p = (int __user *)arg;

	switch (cmd) {
	case THERMO_GET:
		return put_user(thermo_value + iminor(inode), p);
	case THERMO_SET:
		return get_user(thermo_value, p);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations thermo_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= thermo_ioctl,
};

static struct miscdevice thermo_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "thermo",
	.fops	= &thermo_fops,
};

static int __init thermo_init(void)
{
	return misc_register(&thermo_dev);
}
module_init(thermo_init);
MODULE_LICENSE("GPL");
