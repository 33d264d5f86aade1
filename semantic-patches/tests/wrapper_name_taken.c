// options: -D wrapper
/*
 * The wrapper would be called bus_unlocked_ioctl, which the file already
 * defines: it gets the first free name, bus_unlocked_ioctl2, rather than
 * shadow it or be refused.
 */
#include <linux/fs.h>

static long bus_unlocked_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	return -ENOTTY;
}

static int bus_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations bus_fops = {
	.ioctl		= bus_ioctl,
};
