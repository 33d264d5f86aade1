/*
 * red33_knr_front: the front node of red33_knr; it reads the core through
 * the core's own handler, declared old-style in red33_knr.h.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "red33_knr.h"

#define KN_FRONT	_IO('K', 2)
#define KN_READ_CMD	_IO('K', 1)

static int kn_front_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd != KN_FRONT)
		return -ENOTTY;
	return kn_core_ioctl(inode, file, KN_READ_CMD, arg) * 3;
}

static struct file_operations kn_front_fops = {
	.ioctl	= kn_front_ioctl,
};

static struct miscdevice kn_front_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_knr_front",
	.fops	= &kn_front_fops,
};

static int __init kn_front_init(void)
{
	int err = misc_register(&kn_core_misc);

	if (err)
		return err;
	return misc_register(&kn_front_misc);
}
module_init(kn_front_init);
MODULE_LICENSE("GPL");
