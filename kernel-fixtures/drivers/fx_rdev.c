// SPDX-License-Identifier: GPL-2.0
/*
 * fx_rdev: a mode switch per unit, registered with cdev_add(); the unit is
 * read as MINOR(inode->i_rdev), as drivers written before iminor() did.
 *
 * Point: the handler reads inode->i_rdev itself, and every case of its
 * switch returns on its own, so a lock pushed down into the handler must
 * be released on each of those returns.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <fixture/fx_rdev.h>
#include "fixture_observer.h"

#define FX_RDEV_NAME	"fx_rdev"
#define FX_RDEV_UNITS	2

struct fx_rdev_unit {
	u32 mode;
};

static dev_t fx_rdev_devt;
static struct cdev fx_rdev_cdev;
static struct class *fx_rdev_class;
static struct fx_rdev_unit fx_rdev_units[FX_RDEV_UNITS];

static int fx_rdev_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	unsigned int unit = MINOR(inode->i_rdev);
	struct fx_rdev_unit *rdev;
	struct fx_rdev_info info;

	fixture_observe(inode);
	if (unit >= FX_RDEV_UNITS)
		return -ENODEV;
	rdev = &fx_rdev_units[unit];

	switch (cmd) {
	case FX_RDEV_RESET:
		rdev->mode = 0;
		return 0;
	case FX_RDEV_SET_MODE:
		if (arg > FX_RDEV_MODE_MAX)
			return -EINVAL;
		if (rdev->mode == arg)
			return 0;
		rdev->mode = arg;
		return 0;
	case FX_RDEV_GET_MODE:
		return put_user(rdev->mode, (u32 __user *)arg);
	case FX_RDEV_GET_INFO:
		memset(&info, 0, sizeof(info));
		info.unit = unit;
		info.mode = rdev->mode;
		info.modes = FX_RDEV_MODE_MAX + 1;
		if (copy_to_user((void __user *)arg, &info, sizeof(info)))
			return -EFAULT;
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations fx_rdev_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_rdev_ioctl,
};

static int __init fx_rdev_init(void)
{
	struct device *dev;
	int err, unit;

	err = alloc_chrdev_region(&fx_rdev_devt, 0, FX_RDEV_UNITS,
				  FX_RDEV_NAME);
	if (err)
		return err;

	cdev_init(&fx_rdev_cdev, &fx_rdev_fops);
	err = cdev_add(&fx_rdev_cdev, fx_rdev_devt, FX_RDEV_UNITS);
	if (err)
		goto out_region;

	fx_rdev_class = class_create(THIS_MODULE, FX_RDEV_NAME);
	if (IS_ERR(fx_rdev_class)) {
		err = PTR_ERR(fx_rdev_class);
		goto out_cdev;
	}

	for (unit = 0; unit < FX_RDEV_UNITS; unit++) {
		dev = device_create(fx_rdev_class, NULL, fx_rdev_devt + unit,
				    NULL, FX_RDEV_NAME "%d", unit);
		if (IS_ERR(dev)) {
			err = PTR_ERR(dev);
			goto out_devices;
		}
	}
	return 0;

out_devices:
	while (unit--)
		device_destroy(fx_rdev_class, fx_rdev_devt + unit);
	class_destroy(fx_rdev_class);
out_cdev:
	cdev_del(&fx_rdev_cdev);
out_region:
	unregister_chrdev_region(fx_rdev_devt, FX_RDEV_UNITS);
	return err;
}

static void __exit fx_rdev_exit(void)
{
	int unit;

	for (unit = 0; unit < FX_RDEV_UNITS; unit++)
		device_destroy(fx_rdev_class, fx_rdev_devt + unit);
	class_destroy(fx_rdev_class);
	cdev_del(&fx_rdev_cdev);
	unregister_chrdev_region(fx_rdev_devt, FX_RDEV_UNITS);
}

module_init(fx_rdev_init);
module_exit(fx_rdev_exit);

MODULE_DESCRIPTION("Fixture: legacy ioctl reading MINOR(inode->i_rdev)");
MODULE_LICENSE("GPL");
