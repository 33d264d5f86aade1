// SPDX-License-Identifier: GPL-2.0
/*
 * hygro2: a driver already written for old and new kernels: its legacy
 * .ioctl is compiled only where HAVE_UNLOCKED_IOCTL is not defined.  The
 * hostile cases make that branch live without touching it.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static long hygro2_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

#ifndef HAVE_UNLOCKED_IOCTL
static int hygro2_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return hygro2_unlocked(file, cmd, arg);
}
#endif

static const struct file_operations hygro2_fops = {
	.owner		= THIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
	.unlocked_ioctl	= hygro2_unlocked,
	.compat_ioctl	= hygro2_unlocked,
#else
	.ioctl		= hygro2_ioctl,
#endif
};

static struct miscdevice hygro2_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "hygro2",
	.fops	= &hygro2_fops,
};

static int __init hygro2_init(void)
{
	return misc_register(&hygro2_dev);
}
module_init(hygro2_init);
MODULE_LICENSE("GPL");
