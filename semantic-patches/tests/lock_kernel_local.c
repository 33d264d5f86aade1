/*
 * A local is named lock_kernel: a pushed-down "lock_kernel();" would call
 * the variable and not compile.  Auto picks the wrapper, whose own scope
 * has no such name.
 */
#include <linux/fs.h>

static int lk_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int lock_kernel = arg & LK_LOCK;

	if (cmd != LK_SET)
		return -ENOTTY;
	lk_set(lock_kernel);
	return 0;
}

static struct file_operations lk_fops = {
	.ioctl		= lk_ioctl,
};
