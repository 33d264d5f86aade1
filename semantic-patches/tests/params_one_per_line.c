/*
 * "unsigned" alone for unsigned int, "struct inode * inode" spacing and
 * one parameter a line: the inode line goes, the others stay.
 */
#include <linux/fs.h>

static int ua_ioctl(struct inode * inode,
		    struct file * file,
		    unsigned cmd,
		    unsigned long arg)
{
	if (cmd == 1)
		return iminor(inode);
	return -EINVAL;
}

static struct file_operations ua_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= ua_ioctl,
};
