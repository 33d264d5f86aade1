// SPDX-License-Identifier: GPL-2.0
/*
 * anemo2: a multi-kernel driver that picks its entry by kernel version;
 * on the target (>= 2.6.36) the legacy one is never compiled.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)
static int anemo2_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}
#else
static long anemo2_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}
#endif

static const struct file_operations anemo2_fops = {
	.owner		= THIS_MODULE,
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)
	.ioctl		= anemo2_ioctl,
#else
	.unlocked_ioctl	= anemo2_ioctl,
	.compat_ioctl	= anemo2_ioctl,
#endif
};
MODULE_LICENSE("GPL");
