// options: -D mutex
/*
 * -D mutex and forwarding through a local file_operations pointer, called
 * directly and dereferenced first: the local points at the file's own
 * fops, so the forwarded call takes the mutex its caller holds.  Every
 * handler of the file is left alone, each naming the first site.
 */
#include <linux/fs.h>

static int lf_disk_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static struct file_operations lf_disk_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= lf_disk_ioctl,
};

static int lf_ctl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	const struct file_operations *ops = &lf_disk_fops;
	int err;

	if (cmd == 2)
		return ops->ioctl(inode, file, 1, arg);
	err = (*ops->ioctl)(inode, file, cmd, arg);
	return err;
}

static struct file_operations lf_ctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= lf_ctl_ioctl,
};
