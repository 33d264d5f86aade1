/*
 * A handler whose only entry is in a branch that only kernels before
 * 2.6.11 compile, which spatch reads.  A version test is not taken for
 * dead (the wrapper converts each branch of an #if/#else alike), so the
 * entry converts like any other: no entry is left naming the handler
 * with the old member, which an old compiler would only warn about.
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
