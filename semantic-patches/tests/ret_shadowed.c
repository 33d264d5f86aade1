/*
 * The top-level "ret" is shadowed by another "ret" in an inner block,
 * where "ret = E" would write the inner one.  Neither is reused: a fresh
 * long holds the value of every complex return.
 */
int fan_level();
int fan_apply();
int fan_read();
#include <linux/fs.h>

static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int ret = 0;

	switch (cmd) {
	case FAN_SET: {
		unsigned char ret = fan_level(arg);

		return fan_apply(ret);
	}
	case FAN_GET:
		return fan_read((int __user *)arg);
	default:
		ret = -ENOTTY;
	}
	return ret;
}

static struct file_operations fan_fops = {
	.ioctl		= fan_ioctl,
};
