// SPDX-License-Identifier: GPL-2.0
/*
 * fx_split: the registration half; the handler is in fx_split_ioctl.c.
 *
 * Point: a fops whose .ioctl handler is defined in another file.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include "fx_split.h"

static const struct file_operations fx_split_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_split_ioctl,
};

static struct miscdevice fx_split_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_split",
	.fops	= &fx_split_fops,
};
module_misc_device(fx_split_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl handler defined in another file");
MODULE_LICENSE("GPL");
