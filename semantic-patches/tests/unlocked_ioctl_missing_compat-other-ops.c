// rule: unlocked_ioctl_missing_compat.cocci
/* Only file_operations count: a block device without .compat_ioctl is
 * reported by nobody, and the one fops here has both entries. */
#include <linux/fs.h>
#include <linux/blkdev.h>

static int ramd_ioctl(struct block_device *bdev, fmode_t mode,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static long ramd_ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static const struct block_device_operations ramd_bdops = {
	.owner		= THIS_MODULE,
	.ioctl		= ramd_ioctl,
};

struct ramd_ops {
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
};

static const struct ramd_ops ramd_private_ops = {
	.unlocked_ioctl	= ramd_ctl_ioctl,
};

static const struct file_operations ramd_ctl_fops = {
	.unlocked_ioctl	= ramd_ctl_ioctl,
	.compat_ioctl	= ramd_ctl_ioctl,
};
