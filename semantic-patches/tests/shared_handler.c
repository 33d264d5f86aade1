/*
 * One handler serves two devices through two fops: it is converted once
 * and both entries switch.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
void port_reset();

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
	.owner		= THIS_MODULE,
	.ioctl		= port_ioctl,
};

static struct file_operations port_b_fops = {
	.owner		= THIS_MODULE,
	.open		= port_b_open,
	.ioctl		= port_ioctl,
};
