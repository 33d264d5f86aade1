/*
 * A .ioctl naming a function that already has the .unlocked_ioctl
 * signature (a latent bug of old trees: the VFS passed it an inode where
 * it takes the file) becomes .unlocked_ioctl, through a wrapper that takes
 * the lock the VFS took; the function itself is unchanged.
 */
#include <linux/fs.h>

static long gauge_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	return gauge_read(file, cmd, arg);
}

static struct file_operations gauge_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= gauge_ioctl,
};
