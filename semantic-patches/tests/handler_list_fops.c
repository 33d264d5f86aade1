// options: -D handlers=cpuid_ioctl
/*
 * The other side: the fops and the header's prototype name a handler
 * defined elsewhere; with -D handlers= the entry switches and the
 * prototype follows.
 */
#include <linux/module.h>
#include <linux/fs.h>

extern int cpuid_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg);

static struct file_operations cpuid_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cpuid_ioctl,
};
