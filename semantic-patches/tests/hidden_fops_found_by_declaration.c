/*
 * A fops whose only .ioctl is in the branch spatch does not read: no
 * entry of it is matched, and it is still reported, found by its
 * declaration (it was skipped without a word).
 */
#include <linux/fs.h>

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
