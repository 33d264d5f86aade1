/*
 * Org mode gives the same verdicts as report mode, as org-mode links.
 */
int fan_on();
#include <linux/fs.h>

static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return cmd == FAN_ON ? fan_on() : -ENOTTY;
}

static struct file_operations fan_fops = {
	.ioctl		= fan_ioctl,
};

static struct file_operations fan_null_fops = {
	.ioctl		= NULL,
};
