/*
 * A return hidden in a statement expression (from a macro) escapes any
 * unlock placed before the visible returns: auto picks the wrapper, whose
 * unlock runs however the body returns.
 */
#include <linux/fs.h>

#define CHECK_ARG(a)	({ if (!(a)) return -EINVAL; (a); })

static int mtr_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	unsigned long speed;

	speed = ({ if (!arg) return -EINVAL; arg; });
	mtr_set_speed(speed);
	return 0;
}

static struct file_operations mtr_fops = {
	.ioctl		= mtr_ioctl,
};
