// SPDX-License-Identifier: GPL-2.0
/*
 * fx_parent: says whether the inode its handler is given is a directory.
 *
 * Point: a caller that passes an inode that is not its file's inode.
 * fx_parent_up_ioctl() hands fx_parent_ioctl() the inode of the directory
 * holding the node; a converted fx_parent_ioctl() would derive the inode
 * from the file instead and answer for the node.  The conversion must
 * refuse fx_parent_ioctl() (or keep what it answers).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_parent.h>
#include "fixture_observer.h"

static int fx_parent_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	fixture_observe(inode);
	if (cmd != FX_PARENT_IS_DIR)
		return -ENOTTY;
	return put_user(S_ISDIR(inode->i_mode) ? 1 : 0, (u32 __user *)arg);
}

static int fx_parent_up_ioctl(struct inode *inode, struct file *file,
			      unsigned int cmd, unsigned long arg)
{
	struct inode *dir = file->f_dentry->d_parent->d_inode;

	fixture_observe(inode);
	return fx_parent_ioctl(dir, file, cmd, arg);
}

static const struct file_operations fx_parent_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_parent_ioctl,
};

static const struct file_operations fx_parent_up_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_parent_up_ioctl,
};

static struct miscdevice fx_parent_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_parent",
	.fops	= &fx_parent_fops,
};

static struct miscdevice fx_parent_up_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_parent_up",
	.fops	= &fx_parent_up_fops,
};

static int __init fx_parent_init(void)
{
	int err = misc_register(&fx_parent_misc);

	if (err)
		return err;
	err = misc_register(&fx_parent_up_misc);
	if (err)
		misc_deregister(&fx_parent_misc);
	return err;
}
module_init(fx_parent_init);

MODULE_DESCRIPTION("Fixture: a caller passing another inode to a legacy ioctl handler");
MODULE_LICENSE("GPL");
