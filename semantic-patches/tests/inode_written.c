/*
 * The handler reassigns its inode parameter; deriving it from the file
 * would not mean the same thing, so it is refused.
 */
#include <linux/fs.h>

static int link_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (inode->i_nlink == 0)
		inode = link_master_inode;
	return link_do_ioctl(inode, cmd, arg);
}

static struct file_operations link_fops = {
	.ioctl		= link_ioctl,
};
