/*
 * "ret" is static: shared by every caller, so once the lock is dropped
 * another caller may overwrite it before it is returned.  It is neither
 * reused nor returned after the unlock: its value is copied into a fresh
 * long under the lock.
 */
#include <linux/fs.h>

static int cnt_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	static int ret;

	if (cmd != CNT_NEXT)
		return -ENOTTY;
	ret++;
	return ret;
}

static struct file_operations cnt_fops = {
	.ioctl		= cnt_ioctl,
};
