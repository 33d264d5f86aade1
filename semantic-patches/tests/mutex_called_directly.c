// options: -D mutex
/*
 * -D mutex and a handler that another handler calls directly: the callee
 * would run under the BKL from its own fops and under the private mutex
 * from the caller, so neither is converted, and the report says why.
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
