/*
 * A sensor driver with a small ioctl set when built for tiny systems:
 * each branch names its own handler, both defined outside the #if.
 */
#include <linux/fs.h>
int sensor_read(unsigned long arg);
int sensor_calibrate(unsigned long arg);

static int sensor_full_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case SENSOR_READ:
		return sensor_read(arg);
	case SENSOR_CALIBRATE:
		return sensor_calibrate(arg);
	}
	return -ENOTTY;
}

static int sensor_tiny_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	if (cmd == SENSOR_READ)
		return sensor_read(arg);
	return -ENOTTY;
}

static struct file_operations sensor_fops = {
	.owner		= THIS_MODULE,
#ifndef CONFIG_SENSOR_TINY
	.ioctl		= sensor_full_ioctl,
#else
	.ioctl		= sensor_tiny_ioctl,
#endif
};
