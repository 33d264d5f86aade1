// options: -D multi_kernel -D compat
/*
 * -D multi_kernel on a GNU "ioctl: h" initializer: the legacy entry stays
 * for old kernels, and the new entries appear under HAVE_UNLOCKED_IOCTL.
 */
#include <linux/fs.h>

static int joy_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return cmd == JOY_RESET ? 0 : -ENOTTY;
}

static struct file_operations joy_fops = {
	owner:		THIS_MODULE,
	ioctl:		joy_ioctl,
};
