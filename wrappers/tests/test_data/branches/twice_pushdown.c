/*
 * A lamp driver with a dimmer and without: the handler is defined under
 * #ifdef and under #else.  Each definition takes the lock itself.
 */
#include <linux/fs.h>
int lamp_dim(unsigned int unit, unsigned long arg);

#ifdef CONFIG_LAMP_DIMMER
static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return lamp_dim(iminor(inode), arg);
}
#else
static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}
#endif

static struct file_operations lamp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_ioctl,
};
