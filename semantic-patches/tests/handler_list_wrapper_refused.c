// options: -D wrapper -D handlers=cpuid_ioctl
/*
 * -D wrapper for a handler defined in another file: the wrapper would
 * have to live beside the fops, so this file leaves entry and prototype
 * alone, as the file of the definition does.
 */
#include <linux/module.h>
#include <linux/fs.h>

extern int cpuid_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg);

static struct file_operations cpuid_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cpuid_ioctl,
};
