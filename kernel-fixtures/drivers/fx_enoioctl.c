// SPDX-License-Identifier: GPL-2.0
/*
 * fx_enoioctl: a serial number and a label.  The handler answers
 * -ENOIOCTLCMD for commands it does not know, and the serial query is
 * registered with register_ioctl32_conversion(cmd, NULL) because its
 * layout needs no translation, so 32-bit callers reach it with no
 * compat_ioctl.
 *
 * Point: -ENOIOCTLCMD from a legacy handler (which the VFS hands to the
 * caller as is, while it turns an unlocked_ioctl's into -EINVAL), and a
 * 32-bit conversion table entry that must keep working after conversion.
 */
#include <linux/fs.h>
#include <linux/ioctl32.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <fixture/fx_enoioctl.h>
#include "fixture_observer.h"

static char fx_enoioctl_label[FX_ENOIOCTL_LABEL_LEN] = "fixture";

static int fx_enoioctl_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct fx_enoioctl_label label;

	fixture_observe(inode);
	switch (cmd) {
	case FX_ENOIOCTL_GET_SERIAL:
		return put_user(FX_ENOIOCTL_SERIAL, (u64 __user *)argp);
	case FX_ENOIOCTL_SET_LABEL:
		if (copy_from_user(&label, argp, sizeof(label)))
			return -EFAULT;
		if (!label.label[0] || !memchr(label.label, 0, sizeof(label.label)))
			return -EINVAL;
		strscpy(fx_enoioctl_label, label.label, sizeof(fx_enoioctl_label));
		return 0;
	case FX_ENOIOCTL_GET_LABEL:
		memset(&label, 0, sizeof(label));
		strscpy(label.label, fx_enoioctl_label, sizeof(label.label));
		if (copy_to_user(argp, &label, sizeof(label)))
			return -EFAULT;
		return 0;
	}
	return -ENOIOCTLCMD;
}

static const struct file_operations fx_enoioctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_enoioctl_ioctl,
};

static struct miscdevice fx_enoioctl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_enoioctl",
	.fops	= &fx_enoioctl_fops,
};

static int __init fx_enoioctl_init(void)
{
	int err;

	err = register_ioctl32_conversion(FX_ENOIOCTL_GET_SERIAL, NULL);
	if (err)
		return err;
	err = misc_register(&fx_enoioctl_misc);
	if (err)
		unregister_ioctl32_conversion(FX_ENOIOCTL_GET_SERIAL);
	return err;
}

static void __exit fx_enoioctl_exit(void)
{
	misc_deregister(&fx_enoioctl_misc);
	unregister_ioctl32_conversion(FX_ENOIOCTL_GET_SERIAL);
}

module_init(fx_enoioctl_init);
module_exit(fx_enoioctl_exit);

MODULE_DESCRIPTION("Fixture: legacy ioctl returning -ENOIOCTLCMD, one ioctl32 entry");
MODULE_LICENSE("GPL");
