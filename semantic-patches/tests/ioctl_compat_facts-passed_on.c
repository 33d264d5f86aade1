// rule: ioctl_compat_facts.cocci
/*
 * An unlocked handler that compares cmd and passes cmd and arg on, and a
 * tty_operations .ioctl, which is no file_operations and has no facts.
 */
#include <linux/fs.h>

static long wdt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == WDT_PING)
		return wdt_ping();
	return wdt_do_ioctl(file, cmd, arg);
}

static int ser_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TIOCMGET:
		return put_user(0, (int __user *)arg);
	}
	return -ENOIOCTLCMD;
}

static const struct file_operations wdt_fops = {
	.unlocked_ioctl	= wdt_ioctl,
};

static const struct tty_operations ser_ops = {
	.ioctl	= ser_ioctl,
};
