// rule: ioctl_compat_facts.cocci
// options: -D callees=wdt_get_status
/*
 * A function the handler hands a user pointer to, listed with -D callees:
 * its pointer parameter is an alias of arg.  The rule takes its other
 * parameter (file) for cmd; the handler passing its own file to it is no
 * fact of the handler's: facts stay with the function they are about.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

static int wdt_get_status(struct file *file, int __user *p)
{
	return put_user(wdt_status, p);
}

static long wdt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int __user *argp = (int __user *)arg;

	switch (cmd) {
	case WDIOC_GETSTATUS:
		return wdt_get_status(file, argp);
	}
	return -ENOTTY;
}

static const struct file_operations wdt_fops = {
	.unlocked_ioctl	= wdt_ioctl,
};
