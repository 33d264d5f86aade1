/* Not in CHAR and MISC DRIVERS (X: excludes it): falls to THE REST. */
#include <linux/fs.h>

static long excluded_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static const struct file_operations excluded_fops = {
	.unlocked_ioctl	= excluded_ioctl,
};
