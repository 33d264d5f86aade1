// mode: report
/*
 * Two definitions of one fops under #if 0/#else, both read by spatch: the
 * one never compiled stays as it is, and the handler converts for the
 * other.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

#if 0
static struct file_operations tape_fops = {
	ioctl:		tape_ioctl,
};
#else
static struct file_operations tape_fops = {
	.ioctl		= tape_ioctl,
};
#endif
