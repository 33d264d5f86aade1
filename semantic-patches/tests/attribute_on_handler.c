/*
 * GNU attributes on the handler and on its inode parameter: the
 * attribute of the function stays, the parameter goes with its own.
 */
#include <linux/fs.h>

static int __attribute__((unused)) at_ioctl(struct inode *inode __attribute__((unused)),
					    struct file *file, unsigned int cmd,
					    unsigned long arg)
{
	return cmd == 1 ? 91 : -EINVAL;
}

static struct file_operations at_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= at_ioctl,
};
