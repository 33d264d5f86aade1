/*
 * A top-level, non-static "long ret" holds any int a return computes:
 * it is reused as the temporary, and nothing new is declared.
 */
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
