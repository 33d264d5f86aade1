// SPDX-License-Identifier: GPL-2.0
/*
 * fx_abi_level: one level, set and checked with integer arguments.
 *
 * Point: the compat classifier's same-handler class.  arg is only ever a
 * number and no command encodes a type, so a 32-bit caller may share the
 * handler as it is (.compat_ioctl = the unlocked entry).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include <fixture/fx_abi_level.h>
#include "fixture_observer.h"

static unsigned long fx_abi_level;

static int fx_abi_level_ioctl(struct inode *inode, struct file *file,
			      unsigned int cmd, unsigned long arg)
{
	fixture_observe(inode);
	switch (cmd) {
	case FX_ABI_LEVEL_RESET:
		fx_abi_level = 0;
		return 0;
	case FX_ABI_LEVEL_SET:
		if (arg > FX_ABI_LEVEL_MAX)
			return -EINVAL;
		fx_abi_level = arg;
		return 0;
	case FX_ABI_LEVEL_EXPECT:
		return arg == fx_abi_level ? 0 : -ERANGE;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_abi_level_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_abi_level_ioctl,
};

static struct miscdevice fx_abi_level_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_abi_level",
	.fops	= &fx_abi_level_fops,
};
module_misc_device(fx_abi_level_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl with integer arguments only");
MODULE_LICENSE("GPL");
