/*
 * An array whose elements mix C99 and GNU entries: spatch matches the
 * C99 ones only.  The GNU one is still reported, and the handler both
 * name is left alone rather than converted for one element and left with
 * its old signature in the other.
 */
#include <linux/fs.h>

static int duo_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations duo_fops[2] = {
	{ .owner = THIS_MODULE, .ioctl = duo_ioctl, },
	{ owner: THIS_MODULE, ioctl: duo_ioctl },
};
