// SPDX-License-Identifier: GPL-2.0
/*
 * anemo: moved to .unlocked_ioctl by renaming the member only; the
 * handler still has the legacy signature, which check must refuse.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

static int anemo_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return cmd ? -ENOTTY : iminor(inode);
}

static const struct file_operations anemo_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= anemo_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static struct miscdevice anemo_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "anemo",
	.fops	= &anemo_fops,
};

static int __init anemo_init(void)
{
	return misc_register(&anemo_dev);
}
module_init(anemo_init);
MODULE_LICENSE("GPL");
