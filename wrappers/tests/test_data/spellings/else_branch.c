/* .ioctl under #if, its GNU spelling under #else: both converted, one run per branch. */
#include <linux/fs.h>
#include <linux/version.h>

static int two_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations two_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,16)
	.owner		= THIS_MODULE,
	.ioctl		= two_ioctl,	/* entry */
#else
	owner:		THIS_MODULE,
	ioctl:		two_ioctl,	/* entry */
#endif
};
