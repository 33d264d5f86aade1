/*
 * FXA_SET_MODE is passed by the table; FXA_RESET is in no table, so 32-bit processes get -EINVAL for it in this era: a finding whose class (same-handler) the layouts decide.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <linux/fxa.h>

static long fxa_reset_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int value;

	switch (cmd) {
	case FXA_RESET:
		return 0;
	case FXA_SET_MODE:
		return arg > 3 ? -EINVAL : 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations fxa_reset_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fxa_reset_ioctl,
};

static struct miscdevice fxa_reset_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fxa_reset",
	.fops	= &fxa_reset_fops,
};

static int __init fxa_reset_init(void)
{
	return misc_register(&fxa_reset_dev);
}
module_init(fxa_reset_init);
MODULE_LICENSE("GPL");
