// rule: ioctl_compat_facts.cocci
// options: -D callees=wdt_do_ioctl
/*
 * A function the classifier lists with -D callees: its facts are
 * reported as a handler's, with the type of its arg parameter.
 */
#include <linux/fs.h>

static long wdt_do_ioctl(struct wdt *wdt, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case WDT_SET_TIMEOUT:
		wdt->timeout = arg;
		return 0;
	}
	return -ENOTTY;
}

static long wdt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return wdt_do_ioctl(file->private_data, cmd, arg);
}

static const struct file_operations wdt_fops = {
	.unlocked_ioctl	= wdt_ioctl,
};
