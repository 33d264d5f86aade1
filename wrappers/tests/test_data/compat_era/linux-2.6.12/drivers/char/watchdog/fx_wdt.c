/*
 * A watchdog: every command is in the generic table (include/linux/compat_ioctl.h), so 32-bit processes are served without .compat_ioctl and there is no finding.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <linux/watchdog.h>

static struct watchdog_info fx_wdt_info = { .identity = "fx_wdt" };

static long fx_wdt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int value;

	switch (cmd) {
	case WDIOC_GETSUPPORT:
		return copy_to_user((void __user *)arg, &fx_wdt_info, sizeof(fx_wdt_info)) ? -EFAULT : 0;
	case WDIOC_KEEPALIVE:
		return 0;
	case WDIOC_SETTIMEOUT:
		if (get_user(value, (int __user *)arg))
			return -EFAULT;
		return put_user(value, (int __user *)arg);
	default:
		return -ENOTTY;
	}
}

static struct file_operations fx_wdt_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fx_wdt_ioctl,
};

static struct miscdevice fx_wdt_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_wdt",
	.fops	= &fx_wdt_fops,
};

static int __init fx_wdt_init(void)
{
	return misc_register(&fx_wdt_dev);
}
module_init(fx_wdt_init);
MODULE_LICENSE("GPL");
