// options: -D wrapper
/*
 * One handler behind two fops, one GNU-style, under the wrapper strategy:
 * one wrapper, before the first fops, and both entries name it.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>

#define PORT_RESET	_IO('P', 0)

static int port_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd != PORT_RESET)
		return -ENOTTY;
	port_reset(iminor(inode));
	return 0;
}

static struct file_operations port_a_fops = {
	owner:		THIS_MODULE,
	ioctl:		port_ioctl,
};

static struct file_operations port_b_fops = {
	.owner		= THIS_MODULE,
	.open		= port_b_open,
	.ioctl		= port_ioctl,
};
