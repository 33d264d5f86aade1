/*
 * Its own names for two watchdog numbers: the table passes them by number (WDIOC_KEEPALIVE, WDIOC_GETSTATUS), whatever the driver calls them.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>

#define FX_PING		_IOR('W', 5, int)
#define FX_STATUS	_IOR('W', 1, int)

static long fx_ping_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int value;

	switch (cmd) {
	case FX_PING:
		return 0;
	case FX_STATUS:
		return put_user(0, (int __user *)arg);
	default:
		return -ENOTTY;
	}
}

static struct file_operations fx_ping_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fx_ping_ioctl,
};

static struct miscdevice fx_ping_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_ping",
	.fops	= &fx_ping_fops,
};

static int __init fx_ping_init(void)
{
	return misc_register(&fx_ping_dev);
}
module_init(fx_ping_init);
MODULE_LICENSE("GPL");
