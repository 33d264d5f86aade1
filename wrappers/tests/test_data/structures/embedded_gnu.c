/*
 * A fops embedded in a driver structure, in GNU initializer
 * syntax: the 2.4 drm drivers' `fops: { ioctl: h }`.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include "drm_like.h"

static int gnu_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct drm_driver gnu_driver = {
	driver_features: 0,
	fops: {
		owner: THIS_MODULE,
		ioctl: gnu_ioctl,	/* entry */
	},
	name: "gnu",
};
