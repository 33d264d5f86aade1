// SPDX-License-Identifier: GPL-2.0
/*
 * fx_minor: two values behind one character major, one per minor.
 *
 * Point: the legacy handler picks its unit with iminor(inode), so a
 * conversion must derive the inode from the file it is given.  The
 * arguments are plain integers moved with get_user() and put_user().
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_minor.h>
#include "fixture_observer.h"

#define FX_MINOR_NAME	"fx_minor"
#define FX_MINOR_UNITS	2

static int fx_minor_major;
static struct class *fx_minor_class;
static u32 fx_minor_values[FX_MINOR_UNITS];

static int fx_minor_open(struct inode *inode, struct file *file)
{
	if (iminor(inode) >= FX_MINOR_UNITS)
		return -ENXIO;
	return 0;
}

static int fx_minor_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	unsigned int unit = iminor(inode);
	u32 __user *argp = (u32 __user *)arg;
	u32 value;

	fixture_observe(inode);
	if (unit >= FX_MINOR_UNITS)
		return -ENODEV;

	switch (cmd) {
	case FX_MINOR_GET_UNIT:
		return put_user(unit, argp);
	case FX_MINOR_SET_VALUE:
		if (get_user(value, argp))
			return -EFAULT;
		if (value > FX_MINOR_VALUE_MAX)
			return -EINVAL;
		fx_minor_values[unit] = value;
		return 0;
	case FX_MINOR_GET_VALUE:
		return put_user(fx_minor_values[unit], argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_minor_fops = {
	.owner	= THIS_MODULE,
	.open	= fx_minor_open,
	.ioctl	= fx_minor_ioctl,
};

static int __init fx_minor_init(void)
{
	struct device *dev;
	int unit;

	fx_minor_major = register_chrdev(0, FX_MINOR_NAME, &fx_minor_fops);
	if (fx_minor_major < 0)
		return fx_minor_major;

	fx_minor_class = class_create(THIS_MODULE, FX_MINOR_NAME);
	if (IS_ERR(fx_minor_class)) {
		unregister_chrdev(fx_minor_major, FX_MINOR_NAME);
		return PTR_ERR(fx_minor_class);
	}

	for (unit = 0; unit < FX_MINOR_UNITS; unit++) {
		dev = device_create(fx_minor_class, NULL,
				    MKDEV(fx_minor_major, unit), NULL,
				    FX_MINOR_NAME "%d", unit);
		if (IS_ERR(dev))
			pr_warn(FX_MINOR_NAME "%d: no device node (%ld)\n",
				unit, PTR_ERR(dev));
	}
	return 0;
}

static void __exit fx_minor_exit(void)
{
	int unit;

	for (unit = 0; unit < FX_MINOR_UNITS; unit++)
		device_destroy(fx_minor_class, MKDEV(fx_minor_major, unit));
	class_destroy(fx_minor_class);
	unregister_chrdev(fx_minor_major, FX_MINOR_NAME);
}

module_init(fx_minor_init);
module_exit(fx_minor_exit);

MODULE_DESCRIPTION("Fixture: legacy ioctl dispatching on iminor(inode)");
MODULE_LICENSE("GPL");
