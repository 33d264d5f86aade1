/*
 * Without -D handlers=, a fops whose handler is defined in another file
 * is left alone, and the report says so.
 */
#include <linux/fs.h>

extern int cpuid_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg);

static struct file_operations cpuid_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cpuid_ioctl,
};
