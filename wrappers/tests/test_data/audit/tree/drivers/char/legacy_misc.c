/* A misc device with a legacy .ioctl that a pushdown converts. */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/uaccess.h>

static int misc_value;

static int legacy_misc_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return put_user(misc_value, (int __user *)arg);
	case 2:
		return get_user(misc_value, (int __user *)arg);
	}
	return -ENOTTY;
}

static struct file_operations legacy_misc_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= legacy_misc_ioctl,
};
