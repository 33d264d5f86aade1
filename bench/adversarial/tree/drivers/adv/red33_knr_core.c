/*
 * red33_knr_core: the core of a two-file module; its .ioctl handler is
 * also called by the front file through an old-style prototype.
 * Shape: the front file's header red33_knr.h declares the handler as
 * "extern int kn_core_ioctl();" (no parameter types), which this file
 * does not include; a call with the wrong number of arguments after a
 * conversion would compile without a word.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define KN_READ		_IO('K', 1)
#define KN_PORT		0x2a8

int kn_core_calls;

int kn_core_ioctl(struct inode *inode, struct file *file,
		  unsigned int cmd, unsigned long arg)
{
	kn_core_calls++;
	if (cmd != KN_READ)
		return -ENOTTY;
	return inb(KN_PORT) + (file ? 2 : 1) + kn_core_calls;
}

static struct file_operations kn_core_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= kn_core_ioctl,
};

struct miscdevice kn_core_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_knr_core",
	.fops	= &kn_core_fops,
};
