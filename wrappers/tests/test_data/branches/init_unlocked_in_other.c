/*
 * A relay driver already converted for new kernels in one branch: the
 * .ioctl of the other branch is live there (no .unlocked_ioctl beside it),
 * so it is converted, not removed as dead.
 */
#include <linux/fs.h>
int relay_set(unsigned long arg);

static long relay_new_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	return relay_set(arg);
}

static int relay_old_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	return relay_set(arg);
}

static struct file_operations relay_fops = {
	.owner		= THIS_MODULE,
#ifdef CONFIG_RELAY_NEW_API
	.unlocked_ioctl	= relay_new_ioctl,
#else
	.ioctl		= relay_old_ioctl,
#endif
};
