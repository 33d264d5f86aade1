// SPDX-License-Identifier: GPL-2.0
/*
 * fx_proto: one stored value, set and read back.
 *
 * Point: the fops comes before the handler, which is declared in the
 * driver's own header with unnamed parameters spelled uint and ulong.
 * A conversion that left that prototype alone would not build
 * ("conflicting types"): the header must follow the definition.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_proto.h>
#include "fixture_observer.h"
#include "fx_proto.h"

static u32 fx_proto_value;

static const struct file_operations fx_proto_fops = {
	.owner	= THIS_MODULE,
	.open	= fx_proto_open,
	.ioctl	= fx_proto_ioctl,
};

static int fx_proto_open(struct inode *inode, struct file *file)
{
	return 0;
}

static int fx_proto_ioctl(struct inode *inode, struct file *file, uint cmd, ulong arg)
{
	u32 __user *argp = (u32 __user *)arg;
	u32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_PROTO_SET:
		if (get_user(value, argp))
			return -EFAULT;
		if (value > FX_PROTO_VALUE_MAX)
			return -EINVAL;
		fx_proto_value = value;
		return 0;
	case FX_PROTO_GET:
		return put_user(fx_proto_value, argp);
	default:
		return -ENOTTY;
	}
}

static struct miscdevice fx_proto_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_proto",
	.fops	= &fx_proto_fops,
};
module_misc_device(fx_proto_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl handler with a prototype in its own header");
MODULE_LICENSE("GPL");
