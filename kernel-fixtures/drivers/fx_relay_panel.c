// SPDX-License-Identifier: GPL-2.0
/*
 * fx_relay_panel: blinks, and hands every other command to the relay core.
 *
 * Point: the caller in another file, through the subsystem header, of a
 * handler converted elsewhere: return fx_relay_ioctl(inode, file, cmd, arg).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include <fixture/fx_relay.h>
#include "fixture_observer.h"
#include "fx_relay.h"

static unsigned int fx_relay_panel_blinks;

static int fx_relay_panel_ioctl(struct inode *inode, struct file *file,
				unsigned int cmd, unsigned long arg)
{
	fixture_observe(inode);
	if (cmd == FX_RELAY_PANEL_BLINK) {
		if (arg > FX_RELAY_BLINK_MAX)
			return -EINVAL;
		fx_relay_panel_blinks += arg;
		return 0;
	}
	return fx_relay_ioctl(inode, file, cmd, arg);
}

static const struct file_operations fx_relay_panel_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_relay_panel_ioctl,
};

static struct miscdevice fx_relay_panel_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_relay_panel",
	.fops	= &fx_relay_panel_fops,
};
module_misc_device(fx_relay_panel_misc);

MODULE_DESCRIPTION("Fixture: a driver calling another file's legacy ioctl handler");
MODULE_LICENSE("GPL");
