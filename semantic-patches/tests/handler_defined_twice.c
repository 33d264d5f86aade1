/*
 * A handler defined twice, under #ifdef and #else: one set of facts cannot
 * describe both bodies, so it is refused with that reason in words.
 */
#include <linux/fs.h>

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
