// SPDX-License-Identifier: GPL-2.0
/*
 * fx_private: two named units, each a misc device; open() hangs the unit
 * off inode->i_private, the way drivers of the era kept per-node state in
 * inode->u.generic_ip, and the ioctl handler finds it there.
 *
 * Point: the handler's only route to its unit is inode->i_private.  Any
 * inode other than the device node's own has no unit, so the handler
 * answers -ENODEV and the tests see it.  Structures move with
 * copy_from_user() and copy_to_user().
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <fixture/fx_private.h>
#include "fixture_observer.h"

struct fx_private_unit {
	struct miscdevice misc;
	char name[FX_PRIVATE_NAME_LEN];
};

static int fx_private_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;

	inode->i_private = container_of(misc, struct fx_private_unit, misc);
	return 0;
}

static int fx_private_ioctl(struct inode *inode, struct file *file,
			    unsigned int cmd, unsigned long arg)
{
	struct fx_private_unit *unit = inode->i_private;
	void __user *argp = (void __user *)arg;
	struct fx_private_name name;

	fixture_observe(inode);
	if (!unit)
		return -ENODEV;

	switch (cmd) {
	case FX_PRIVATE_SET_NAME:
		if (copy_from_user(&name, argp, sizeof(name)))
			return -EFAULT;
		if (!name.name[0] || !memchr(name.name, 0, sizeof(name.name)))
			return -EINVAL;
		strscpy(unit->name, name.name, sizeof(unit->name));
		return 0;
	case FX_PRIVATE_GET_NAME:
		memset(&name, 0, sizeof(name));
		strscpy(name.name, unit->name, sizeof(name.name));
		if (copy_to_user(argp, &name, sizeof(name)))
			return -EFAULT;
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_private_fops = {
	.owner	= THIS_MODULE,
	.open	= fx_private_open,
	.ioctl	= fx_private_ioctl,
};

static struct fx_private_unit fx_private_units[] = {
	{
		.misc = { MISC_DYNAMIC_MINOR, "fx_private0", &fx_private_fops },
		.name = "unit0",
	},
	{
		.misc = { MISC_DYNAMIC_MINOR, "fx_private1", &fx_private_fops },
		.name = "unit1",
	},
};

static int __init fx_private_init(void)
{
	int err, i;

	for (i = 0; i < ARRAY_SIZE(fx_private_units); i++) {
		err = misc_register(&fx_private_units[i].misc);
		if (err)
			goto out_unregister;
	}
	return 0;

out_unregister:
	while (i--)
		misc_deregister(&fx_private_units[i].misc);
	return err;
}

static void __exit fx_private_exit(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fx_private_units); i++)
		misc_deregister(&fx_private_units[i].misc);
}

module_init(fx_private_init);
module_exit(fx_private_exit);

MODULE_DESCRIPTION("Fixture: legacy ioctl finding its unit in inode->i_private");
MODULE_LICENSE("GPL");
