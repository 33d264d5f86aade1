/*
 * A second entry in a branch that is never compiled: under #if 0 (before
 * the live #else, or nested in an #ifdef), or under the #else of #if 1.
 * The handler converts for its live entry, and the dead one stays as it
 * is.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int joy_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return cmd == JOY_RESET ? 0 : -ENOTTY;
}

static int pad_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int wheel_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int stick_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations joy_fops = {
#if 0
	owner:		THIS_MODULE,
	ioctl:		joy_ioctl,
#else
	.owner		= THIS_MODULE,
	.ioctl		= joy_ioctl,
#endif
};

static struct file_operations pad_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= pad_ioctl,
#if 0
	ioctl:		pad_ioctl,
#endif
};

static struct file_operations wheel_fops = {
#if 1
	.ioctl		= wheel_ioctl,
#else
	ioctl:		wheel_ioctl,
#endif
};

static struct file_operations stick_fops = {
	.ioctl		= stick_ioctl,
#ifdef CONFIG_STICK_OLD_API
#if 0
	ioctl:		stick_ioctl,
#endif
#endif
};
