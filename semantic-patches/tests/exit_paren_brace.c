/*
 * A statement expression written "( {", with a space: it can return from
 * the handler as "({" can, so auto picks the wrapper.
 */
#include <linux/fs.h>

static int mtr_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	unsigned long speed;

	speed = ( { if (!arg) return -EINVAL; arg; } );
	mtr_set_speed(speed);
	return 0;
}

static struct file_operations mtr_fops = {
	.ioctl		= mtr_ioctl,
};
