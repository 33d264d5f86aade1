// SPDX-License-Identifier: GPL-2.0
/*
 * fx_gnu: a version query and a debug level, written the way drivers were
 * before C99 designated initializers: "ioctl: fx_gnu_ioctl," in the
 * file_operations, and -EINVAL for a command it does not know.
 *
 * Point: the GNU "field: value" initializer.  A conversion must find the
 * handler through it and write the new entries in the same style.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_gnu.h>
#include "fixture_observer.h"

#define FX_GNU_MAJOR	2
#define FX_GNU_MINOR	6
#define FX_GNU_PATCH	11

static u32 fx_gnu_level;

static int fx_gnu_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	struct fx_gnu_version version = {
		FX_GNU_MAJOR, FX_GNU_MINOR, FX_GNU_PATCH, 0
	};
	u32 level;

	fixture_observe(inode);
	switch (cmd) {
	case FX_GNU_GET_VERSION:
		if (copy_to_user((void __user *)arg, &version, sizeof(version)))
			return -EFAULT;
		break;
	case FX_GNU_SET_LEVEL:
		if (get_user(level, (u32 __user *)arg))
			return -EFAULT;
		if (level > FX_GNU_LEVEL_MAX)
			return -EINVAL;
		fx_gnu_level = level;
		break;
	case FX_GNU_GET_LEVEL:
		return put_user(fx_gnu_level, (u32 __user *)arg);
	default:
		return -EINVAL;
	}
	return 0;
}

static const struct file_operations fx_gnu_fops = {
	owner:		THIS_MODULE,
	ioctl:		fx_gnu_ioctl,
};

static struct miscdevice fx_gnu_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_gnu",
	.fops	= &fx_gnu_fops,
};

static int __init fx_gnu_init(void)
{
	return misc_register(&fx_gnu_misc);
}

static void __exit fx_gnu_exit(void)
{
	misc_deregister(&fx_gnu_misc);
}

module_init(fx_gnu_init);
module_exit(fx_gnu_exit);

MODULE_DESCRIPTION("Fixture: legacy ioctl in a GNU-style initializer");
MODULE_LICENSE("GPL");
