/*
 * The returning macro is in the driver's own header, included with
 * quotes from the same directory: the rule reads it there and picks the
 * wrapper.
 */
#include <linux/fs.h>
#include "exit_header_macro.h"

static int sq_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int speed;

	if (cmd != SNDCTL_DSP_SPEED)
		return -EINVAL;
	IOCTL_IN(arg, speed);
	sq_set_speed(speed);
	return 0;
}

static struct file_operations sq_fops = {
	.ioctl		= sq_ioctl,
};
