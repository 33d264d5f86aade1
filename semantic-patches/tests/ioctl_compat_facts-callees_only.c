// rule: ioctl_compat_facts.cocci
// options: -D callees=wdt_get_status -D callees_only=1
/*
 * The second run of the classifier: -D callees_only leaves out the fops
 * entries (their facts are known from the first run); only the listed
 * function's facts are reported.
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
