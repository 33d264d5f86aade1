/*
 * Registers its command for 32-bit processes itself (register_ioctl32_conversion with no handler: passed as it is), as drivers did before 2.6.15.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <linux/ioctl.h>

#define FXR_PING	_IO('r', 1)

static long fxr_reg_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int value;

	switch (cmd) {
	case FXR_PING:
		return 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations fxr_reg_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fxr_reg_ioctl,
};

static struct miscdevice fxr_reg_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fxr_reg",
	.fops	= &fxr_reg_fops,
};

static int __init fxr_reg_init(void)
{
	register_ioctl32_conversion(FXR_PING, NULL);
	return misc_register(&fxr_reg_dev);
}
module_init(fxr_reg_init);
MODULE_LICENSE("GPL");
