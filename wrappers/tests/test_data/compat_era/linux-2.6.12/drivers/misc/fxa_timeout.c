/*
 * Every command handled by the tree: FXA_GET_TIMEOUT (a long inside) translated by fs/compat_ioctl.c as FXA_GET_TIMEOUT32, FXA_SET_LEVEL by the arch table under another name, FXA_SET_MODE passed (ULONG_IOCTL): class translated.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <linux/fxa.h>

static long fxa_timeout_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int value;

	switch (cmd) {
	case FXA_GET_TIMEOUT: {
		struct fxa_timeout t = { .msecs = 1000 };
		return copy_to_user((void __user *)arg, &t, sizeof(t)) ? -EFAULT : 0;
	}
	case FXA_SET_MODE:
		return arg > 3 ? -EINVAL : 0;
	case FXA_SET_LEVEL:
		return get_user(value, (int __user *)arg);
	default:
		return -ENOTTY;
	}
}

static struct file_operations fxa_timeout_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fxa_timeout_ioctl,
};

static struct miscdevice fxa_timeout_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fxa_timeout",
	.fops	= &fxa_timeout_fops,
};

static int __init fxa_timeout_init(void)
{
	return misc_register(&fxa_timeout_dev);
}
module_init(fxa_timeout_init);
MODULE_LICENSE("GPL");
