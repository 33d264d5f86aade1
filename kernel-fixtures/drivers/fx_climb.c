// SPDX-License-Identifier: GPL-2.0
/*
 * fx_climb: asks fx_parent about the directory holding its own node.
 *
 * Point: the caller that passes another inode than its file's to a
 * handler of another file: fx_parent_ioctl(dir, file, cmd, arg).  Its own
 * handler converts; fx_parent_ioctl() must not.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include <fixture/fx_parent.h>
#include "fixture_observer.h"
#include "fx_parent.h"

static int fx_climb_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct inode *dir = file->f_dentry->d_parent->d_inode;

	fixture_observe(inode);
	return fx_parent_ioctl(dir, file, cmd, arg);
}

static const struct file_operations fx_climb_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_climb_ioctl,
};

static struct miscdevice fx_climb_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_climb",
	.fops	= &fx_climb_fops,
};
module_misc_device(fx_climb_misc);

MODULE_DESCRIPTION("Fixture: a driver passing its directory's inode to another's handler");
MODULE_LICENSE("GPL");
