/*
 * A handler whose only entry is in a branch that only kernels before
 * 2.6.11 compile, which spatch reads: converted, it would be named by no
 * entry compiled with it (and the entry there would be wrong), so it is
 * left alone, entry and all.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int old_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations old_fops = {
	.owner		= THIS_MODULE,
#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,0)
	ioctl:		old_ioctl,
#endif
};
