// options: -D mutex
/*
 * -D mutex and a handler that another handler of the file calls directly:
 * the callee gets the wrapper, so its body runs under the private mutex the
 * caller (pushed down) already holds, and the VFS gets the wrapper that
 * takes it; the call loses its inode argument.
 */
#include <linux/fs.h>

static int pcf_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != PCF_RESET)
		return -ENOTTY;
	pcf_reset();
	return 0;
}

static int pcf_ctl_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd == PCF_RESET)
		return pcf_ioctl(inode, file, cmd, arg);
	return -ENOTTY;
}

static struct file_operations pcf_fops = {
	.ioctl		= pcf_ioctl,
};

static struct file_operations pcf_ctl_fops = {
	.ioctl		= pcf_ctl_ioctl,
};
