// rule: ioctl_signature_mismatch.cocci
/*
 * Negative case: every handler fits its member, and the .ioctl of a
 * block_device_operations (a different signature) is not our business.
 */
#include <linux/fs.h>
#include <linux/blkdev.h>

static int old_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static long new_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int disk_ioctl(struct block_device *bdev, fmode_t mode,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations old_fops = {
	.ioctl		= old_ioctl,
};

static const struct file_operations new_fops = {
	.unlocked_ioctl	= new_ioctl,
	.compat_ioctl	= new_ioctl,
};

static const struct block_device_operations disk_fops = {
	.ioctl		= disk_ioctl,
};
