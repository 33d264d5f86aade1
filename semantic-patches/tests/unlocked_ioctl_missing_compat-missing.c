// rule: unlocked_ioctl_missing_compat.cocci
/* A watchdog converted to .unlocked_ioctl that forgot 32-bit callers. */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/watchdog.h>

static long wdt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case WDIOC_KEEPALIVE:
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations wdt_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= wdt_ioctl,
};
