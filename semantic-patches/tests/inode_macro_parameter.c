/*
 * A macro whose own parameter is named inode does not use the handler's:
 * UNIT_OF(other) is not a use of the inode, and no inode is derived.
 */
int dimmer_set();
#include <linux/fs.h>

#define UNIT_OF(inode)	iminor(inode)

static int dimmer_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return dimmer_set(UNIT_OF(dimmer_master), arg);
}

static struct file_operations dimmer_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= dimmer_ioctl,
};
