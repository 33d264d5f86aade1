// options: -D mutex
/*
 * -D mutex and the only handler of a file forwarding through a struct
 * file's f_op: the lower file may be one this driver opened itself, so the
 * forwarded call may reach the handler that makes it (default-deny: which
 * fops the pointer holds is not proven).  Under the private mutex that is
 * a deadlock: left alone, with the site.
 */
#include <linux/fs.h>

struct sk_dev {
	struct file *lower;
};

static int sk_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct sk_dev *dev = file->private_data;
	struct file *lower = dev->lower;

	if (cmd == 0x5301)
		return 0;
	if (!lower->f_op || !lower->f_op->ioctl)
		return -ENOTTY;
	return lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
}

static struct file_operations sk_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sk_ioctl,
};
