/*
 * A lamp driver whose two configurations spell the entry differently:
 * &lamp_ioctl in one, a cast in the other.  Both name the function.
 */
#include <linux/fs.h>
int lamp_set(unsigned int unit, unsigned long arg);

static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return lamp_set(iminor(inode), arg);
}

static struct file_operations lamp_fops = {
	.owner		= THIS_MODULE,
#ifdef CONFIG_LAMP_STRICT
	.ioctl		= &lamp_ioctl,
#else
	.ioctl		= (void *)lamp_ioctl,
#endif
	.open		= lamp_open,
};
