// rule: ioctl_signature_mismatch.cocci
/* The parameters fit .ioctl, but the return type was changed half-way. */
#include <linux/fs.h>

static long gauge_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations gauge_fops = {
	.ioctl	= gauge_ioctl,
};
