// rule: ioctl_compat_facts.cocci
/*
 * Every fact of a switch-based handler: its commands, a pointer alias
 * copied both ways, a cast passed to put_user(), an integer use, and the
 * helper of another function (not a handler) that only shares the
 * parameter names, whose facts are reported under its own name.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

static int gpio_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct gpio_cfg cfg;

	switch (cmd) {
	case GPIO_SET_CFG:
		if (copy_from_user(&cfg, argp, sizeof(cfg)))
			return -EFAULT;
		return 0;
	case GPIO_GET_LEVEL:
		return put_user(gpio_level, (int __user *)arg);
	case GPIO_SET_LEVEL:
		gpio_level = arg & 1;
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations gpio_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= gpio_ioctl,
};
