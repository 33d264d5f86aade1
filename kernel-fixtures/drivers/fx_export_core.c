// SPDX-License-Identifier: GPL-2.0
/*
 * fx_export_core: the serial of a board, for its own node and its drivers.
 *
 * Point: an EXPORT_SYMBOL()ed handler used by two drivers (fx_export_a.c,
 * fx_export_b.c).  It is converted with both of its users, or not at all.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_export.h>
#include "fixture_observer.h"
#include "fx_export.h"

int fx_export_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	fixture_observe(inode);
	if (cmd != FX_EXPORT_GET_SERIAL)
		return -ENOTTY;
	return put_user(FX_EXPORT_SERIAL, (u32 __user *)arg);
}
EXPORT_SYMBOL(fx_export_ioctl);

static const struct file_operations fx_export_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_export_ioctl,
};

static struct miscdevice fx_export_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_export",
	.fops	= &fx_export_fops,
};
module_misc_device(fx_export_misc);

MODULE_DESCRIPTION("Fixture: an exported legacy ioctl handler");
MODULE_LICENSE("GPL");
