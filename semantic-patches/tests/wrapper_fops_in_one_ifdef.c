// options: -D wrapper
/*
 * Every fops naming the handler is inside the same #ifdef: the wrapper
 * goes inside it too, before the first of them.
 */
#include <linux/fs.h>

static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return lamp_command(cmd, arg);
}

#ifdef CONFIG_LAMP_NODE
static struct file_operations lamp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_ioctl,
};
#endif
