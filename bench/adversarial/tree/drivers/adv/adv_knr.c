/*
 * adv_knr: a very old driver whose handler kept its K&R definition.
 * Shape: a K&R-style definition of the legacy handler.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define KR_GET	_IO('k', 0x40)

static int kr_ticks = 4;

static int kr_ioctl(inode, file, cmd, arg)
	struct inode *inode;
	struct file *file;
	unsigned int cmd;
	unsigned long arg;
{
	if (cmd != KR_GET)
		return -ENOTTY;
	return kr_ticks++;
}

static struct file_operations kr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= kr_ioctl,
};

static struct miscdevice kr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_knr",
	.fops	= &kr_fops,
};

static int __init kr_init(void)
{
	return misc_register(&kr_misc);
}
module_init(kr_init);
MODULE_LICENSE("GPL");
