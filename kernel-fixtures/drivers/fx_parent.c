// SPDX-License-Identifier: GPL-2.0
/*
 * fx_parent: says whether the inode its handler is given is a directory.
 *
 * Point: a caller in another file (fx_climb.c) passes an inode that is not
 * its file's inode: the directory holding its node.  A converted
 * fx_parent_ioctl() would derive the inode from the file instead and
 * answer for the node.  The conversion must refuse fx_parent_ioctl() in
 * every file that names it.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_parent.h>
#include "fixture_observer.h"
#include "fx_parent.h"

int fx_parent_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	fixture_observe(inode);
	if (cmd != FX_PARENT_IS_DIR)
		return -ENOTTY;
	return put_user(S_ISDIR(inode->i_mode) ? 1 : 0, (u32 __user *)arg);
}

static const struct file_operations fx_parent_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_parent_ioctl,
};

static struct miscdevice fx_parent_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_parent",
	.fops	= &fx_parent_fops,
};
module_misc_device(fx_parent_misc);

MODULE_DESCRIPTION("Fixture: a legacy ioctl handler whose caller passes another inode");
MODULE_LICENSE("GPL");
