/* Both entries set: the VFS calls .unlocked_ioctl, so .ioctl is dead. */
#include <linux/fs.h>

static long legacy_dead_unlocked_ioctl(struct file *file, unsigned int cmd,
				       unsigned long arg)
{
	return -ENOTTY;
}

static int legacy_dead_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations legacy_dead_fops = {
	.unlocked_ioctl	= legacy_dead_unlocked_ioctl,
	.ioctl		= legacy_dead_ioctl,
};
