// SPDX-License-Identifier: GPL-2.0
/*
 * fx_relay_core: a level from 0 to FX_RELAY_LEVEL_MAX.
 *
 * Point: a handler that is not static, declared in a subsystem header
 * (include/fx_relay.h) and called directly from another file
 * (fx_relay_panel.c).  The definition, the header and that call must be
 * converted together, or not at all.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_relay.h>
#include "fixture_observer.h"
#include "fx_relay.h"

static u32 fx_relay_level;

int fx_relay_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	fixture_observe(inode);
	switch (cmd) {
	case FX_RELAY_SET_LEVEL:
		if (arg > FX_RELAY_LEVEL_MAX)
			return -EINVAL;
		fx_relay_level = arg;
		return 0;
	case FX_RELAY_GET_LEVEL:
		return put_user(fx_relay_level, (u32 __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_relay_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_relay_ioctl,
};

static struct miscdevice fx_relay_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_relay",
	.fops	= &fx_relay_fops,
};
module_misc_device(fx_relay_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl handler called from another file");
MODULE_LICENSE("GPL");
