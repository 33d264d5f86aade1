/*
 * The same driver in patch mode: neither branch changes, since converting
 * the handler for the branch spatch reads would break the other.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int joy_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations joy_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,16)
	.owner		= THIS_MODULE,
	.ioctl		= joy_ioctl,
#else
	owner:		THIS_MODULE,
	ioctl:		joy_ioctl,
#endif
};
