/*
 * A top-level "long ret" is not the temporary: the legacy int handler
 * returned it truncated to an int, and so must the long one.  A fresh
 * int takes every value that is not an int constant, ret included.
 */
long tmr_prepare();
long tmr_value();
#include <linux/fs.h>

static int tmr_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	long ret;

	if (cmd != TMR_GET)
		return -ENOTTY;
	ret = tmr_prepare();
	if (ret)
		return ret;
	return put_user(tmr_value(), (long __user *)arg);
}

static struct file_operations tmr_fops = {
	.ioctl		= tmr_ioctl,
};
