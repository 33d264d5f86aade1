/*
 * Entries in branches some kernel with .unlocked_ioctl still compiles,
 * or whose branch is not known: a version test after 2.6.11 (or at it,
 * with >), a dead first branch that spatch reads instead of the live
 * #else, and an #elif chain.  Each handler is left alone as before: the
 * entry spatch does not rewrite would be wrong on some kernel.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int cam_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int tuner_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations cam_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,16)
	.ioctl		= cam_ioctl,
#else
	ioctl:		cam_ioctl,
#endif
};

static struct file_operations dial_fops = {
#if LINUX_VERSION_CODE > KERNEL_VERSION(2,6,11)
	.ioctl		= dial_ioctl,
#else
	ioctl:		dial_ioctl,
#endif
};

static struct file_operations tuner_fops = {
#if LINUX_VERSION_CODE < 0x020600
	ioctl:		tuner_ioctl,
#else
	.ioctl		= tuner_ioctl,
#endif
};

static struct file_operations lamp_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)
	.ioctl		= lamp_ioctl,
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0)
	ioctl:		lamp_ioctl,
#endif
};
