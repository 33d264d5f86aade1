// options: -D mutex
/*
 * -D mutex and forwarding through an element of the file's own array of
 * fops, by value and through its address: the control node hands a
 * command to a channel's handler, which under the private mutex would
 * wait for the mutex its caller holds.  Every handler is left alone.
 */
#include <linux/fs.h>

static int fa_chan_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg);

static struct file_operations fa_fops[2] = {
	{ .owner = THIS_MODULE, .ioctl = fa_chan_ioctl, },
	{ .owner = THIS_MODULE, .ioctl = fa_chan_ioctl, },
};

static int fa_chan_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return cmd == 7 ? 0 : -EINVAL;
}

static int fa_ctl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (arg > 1)
		return (&fa_fops[0])->ioctl(inode, file, cmd, 0);
	return fa_fops[arg].ioctl(inode, file, cmd, arg);
}

static struct file_operations fa_ctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fa_ctl_ioctl,
};
