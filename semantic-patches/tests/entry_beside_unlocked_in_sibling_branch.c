/*
 * An .unlocked_ioctl in the #else of the branch spatch reads is never
 * compiled with the .ioctl: that entry is live, so it is converted, not
 * removed as dead.
 */
int relay_set();
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
#ifdef CONFIG_RELAY_OLD_API
	.ioctl		= relay_old_ioctl,
#else
	.unlocked_ioctl	= relay_new_ioctl,
#endif
};
