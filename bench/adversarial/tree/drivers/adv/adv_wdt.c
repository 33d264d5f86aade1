/*
 * adv_wdt: an ISA watchdog in the style of 2.6 drivers/char/watchdog.
 * Shape: WDIOC_* commands, fallthrough from SETTIMEOUT into GETTIMEOUT,
 * port writes for the keepalive, a case returning from inside an if.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/watchdog.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define WDT_PORT	0x443
#define WDT_MAX		255

static int timeout = 60;
static struct watchdog_info ident = {
	.options = WDIOF_SETTIMEOUT | WDIOF_KEEPALIVEPING | WDIOF_MAGICCLOSE,
	.firmware_version = 1,
	.identity = "adv_wdt",
};

static void wdt_ping(void)
{
	outb(timeout, WDT_PORT);
}

static int wdt_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
		     unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	int __user *p = argp;
	int new_timeout;

	switch (cmd) {
	case WDIOC_GETSUPPORT:
		if (copy_to_user(argp, &ident, sizeof(ident)))
			return -EFAULT;
		break;
	case WDIOC_GETSTATUS:
	case WDIOC_GETBOOTSTATUS:
		return put_user(0, p);
	case WDIOC_KEEPALIVE:
		wdt_ping();
		break;
	case WDIOC_SETTIMEOUT:
		if (get_user(new_timeout, p))
			return -EFAULT;
		if (new_timeout < 1 || new_timeout > WDT_MAX)
			return -EINVAL;
		timeout = new_timeout;
		wdt_ping();
		/* Fall through */
	case WDIOC_GETTIMEOUT:
		return put_user(timeout, p);
	default:
		return -ENOIOCTLCMD;
	}
	return 0;
}

static struct file_operations wdt_fops = {
	.owner		= THIS_MODULE,
	.llseek		= no_llseek,
	.ioctl		= wdt_ioctl,
};

static struct miscdevice wdt_miscdev = {
	.minor	= WATCHDOG_MINOR,
	.name	= "watchdog",
	.fops	= &wdt_fops,
};

static int __init wdt_init(void)
{
	return misc_register(&wdt_miscdev);
}

module_init(wdt_init);
MODULE_LICENSE("GPL");
