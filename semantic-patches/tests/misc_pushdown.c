/*
 * A misc device whose handler needs neither the inode nor a temporary:
 * every exit returns a constant, so pushdown only brackets it.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
void wdt_keepalive();

#define WDT_KEEPALIVE	_IO('W', 5)
#define WDT_DISABLE	_IO('W', 6)

static int wdt_expect_close;

static int wdt_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case WDT_KEEPALIVE:
		wdt_keepalive();
		return 0;
	case WDT_DISABLE:
		wdt_expect_close = 42;
		return 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations wdt_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= wdt_ioctl,
	.open		= wdt_open,
	.release	= wdt_release,
};

static struct miscdevice wdt_miscdev = {
	.minor		= WATCHDOG_MINOR,
	.name		= "watchdog",
	.fops		= &wdt_fops,
};
