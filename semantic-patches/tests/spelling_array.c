/*
 * An array of file_operations: each element is an entry of its own.  The
 * first element also sets .unlocked_ioctl, so its .ioctl is dead and goes;
 * the second is live and is converted.  Neither is judged by the other.
 */
int port_do_ioctl();
#include <linux/fs.h>

static long port_unlocked_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	return port_do_ioctl(file, cmd, arg);
}

static int port_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return port_do_ioctl(file, cmd, arg);
}

static struct file_operations port_fops[2] = {
	{
		.owner		= THIS_MODULE,
		.unlocked_ioctl	= port_unlocked_ioctl,
		.ioctl		= port_ioctl,
	},
	{
		.owner		= THIS_MODULE,
		.ioctl		= port_ioctl,
	},
};
