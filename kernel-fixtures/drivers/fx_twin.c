// SPDX-License-Identifier: GPL-2.0
/*
 * fx_twin: one shared value seen through two misc devices, a control node
 * that may change it and a status node that may only read it.  Each node
 * has its own file_operations; both name the same ioctl handler, which
 * tells them apart by the inode's minor.
 *
 * Point: one handler shared by two fops.  A conversion must rewrite both
 * entries to the same new handler, and give it the right inode for each.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_twin.h>
#include "fixture_observer.h"

static struct miscdevice fx_twin_ctl;
static struct miscdevice fx_twin_status;
static s32 fx_twin_shared;

static int fx_twin_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	bool is_ctl = iminor(inode) == fx_twin_ctl.minor;
	s32 __user *argp = (s32 __user *)arg;
	s32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_TWIN_IDENTIFY:
		return put_user(is_ctl ? FX_TWIN_CTL : FX_TWIN_STATUS,
				(u32 __user *)argp);
	case FX_TWIN_SET_SHARED:
		if (!is_ctl)
			return -EPERM;
		if (get_user(value, argp))
			return -EFAULT;
		if (value < 0)
			return -EINVAL;
		fx_twin_shared = value;
		return 0;
	case FX_TWIN_GET_SHARED:
		return put_user(fx_twin_shared, argp);
	default:
		return -ENOTTY;
	}
}

/* The status node is read-only. */
static int fx_twin_status_open(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_WRITE)
		return -EPERM;
	return 0;
}

static const struct file_operations fx_twin_ctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_twin_ioctl,
};

static const struct file_operations fx_twin_status_fops = {
	.owner	= THIS_MODULE,
	.open	= fx_twin_status_open,
	.ioctl	= fx_twin_ioctl,
};

static struct miscdevice fx_twin_ctl = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_twin_ctl",
	.fops	= &fx_twin_ctl_fops,
};

static struct miscdevice fx_twin_status = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_twin_status",
	.fops	= &fx_twin_status_fops,
	.mode	= 0444,
};

static int __init fx_twin_init(void)
{
	int err;

	err = misc_register(&fx_twin_ctl);
	if (err)
		return err;
	err = misc_register(&fx_twin_status);
	if (err)
		misc_deregister(&fx_twin_ctl);
	return err;
}

static void __exit fx_twin_exit(void)
{
	misc_deregister(&fx_twin_status);
	misc_deregister(&fx_twin_ctl);
}

module_init(fx_twin_init);
module_exit(fx_twin_exit);

MODULE_DESCRIPTION("Fixture: one legacy ioctl handler shared by two fops");
MODULE_LICENSE("GPL");
