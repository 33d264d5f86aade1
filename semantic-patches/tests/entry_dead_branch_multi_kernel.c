// options: -D multi_kernel
/*
 * With -D multi_kernel the converted file still builds before 2.6.11, so
 * a branch only those kernels compile is live: the #else entry spatch
 * does not read leaves the handler alone, as without a version test.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int joy_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations joy_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)
	.ioctl		= joy_ioctl,
#else
	ioctl:		joy_ioctl,
#endif
};
