/*
 * Clean layouts, but the table translates FXA_SET_FLAGS: a .compat_ioctl would bypass that translation, so nothing may be added (needs-translation).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <linux/fxa.h>

static long fxa_flags_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int value;

	switch (cmd) {
	case FXA_SET_FLAGS:
		return get_user(value, (int __user *)arg);
	case FXA_RESET:
		return 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations fxa_flags_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fxa_flags_ioctl,
};

static struct miscdevice fxa_flags_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fxa_flags",
	.fops	= &fxa_flags_fops,
};

static int __init fxa_flags_init(void)
{
	return misc_register(&fxa_flags_dev);
}
module_init(fxa_flags_init);
MODULE_LICENSE("GPL");
