// rule: ioctl_compat_facts.cocci
/*
 * A pointer alias of an alias is an alias too (`int __user *p = argp;`,
 * the watchdog drivers' shape): its uses count as arg's, and the place
 * it is set from is reported as such (alias-from).  cmd printed by
 * pr_debug() is a call like any other: the classifier knows the printers.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

static long wdt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	int __user *p = argp;
	struct watchdog_info ident;

	pr_debug("wdt: cmd %u\n", cmd);
	switch (cmd) {
	case WDIOC_GETSUPPORT:
		return copy_to_user(argp, &ident, sizeof(ident)) ? -EFAULT : 0;
	case WDIOC_GETTIMEOUT:
		return put_user(heartbeat, p);
	}
	return -ENOTTY;
}

static const struct file_operations wdt_fops = {
	.unlocked_ioctl	= wdt_ioctl,
};
