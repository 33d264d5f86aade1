// options: -D wrapper
/*
 * The wrapper would go before the first fops naming the handler, which is
 * inside an #ifdef; the second fops, outside it, would then name a
 * function that some configurations do not have.  Refused.
 */
#include <linux/fs.h>

static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return lamp_command(cmd, arg);
}

#ifdef CONFIG_LAMP_LEGACY_NODE
static struct file_operations lamp_legacy_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_ioctl,
};
#endif

static struct file_operations lamp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_ioctl,
};
