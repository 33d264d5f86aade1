// SPDX-License-Identifier: GPL-2.0
/*
 * fx_export_b: answers its ping, and asks the board core for the rest.
 *
 * Point: one of two drivers that call the exported fx_export_ioctl().
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include <fixture/fx_export.h>
#include "fixture_observer.h"
#include "fx_export.h"

static int fx_export_b_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	fixture_observe(inode);
	if (cmd == FX_EXPORT_B_PING)
		return 0;
	return fx_export_ioctl(inode, file, cmd, arg);
}

static const struct file_operations fx_export_b_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_export_b_ioctl,
};

static struct miscdevice fx_export_b_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_export_b",
	.fops	= &fx_export_b_fops,
};
module_misc_device(fx_export_b_misc);

MODULE_DESCRIPTION("Fixture: a user of an exported legacy ioctl handler");
MODULE_LICENSE("GPL");
