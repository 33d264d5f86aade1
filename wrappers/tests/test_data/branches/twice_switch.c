/*
 * A fan driver whose two handlers differ in shape: a switch with a ret of
 * its own under #ifndef, an early return under #else.
 */
#include <linux/fs.h>
int fan_set_speed(unsigned long arg);

#define FAN_FIXED_SPEED	1200	/* rpm */

#ifndef CONFIG_FAN_FIXED
static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int ret;

	switch (cmd) {
	case FAN_SET_SPEED:
		ret = fan_set_speed(arg);
		break;
	default:
		ret = -ENOTTY;
	}
	return ret;
}
#else
static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != FAN_GET_SPEED)
		return -ENOTTY;
	return FAN_FIXED_SPEED;
}
#endif

static struct file_operations fan_fops = {
	owner:		THIS_MODULE,
	ioctl:		fan_ioctl,
};
