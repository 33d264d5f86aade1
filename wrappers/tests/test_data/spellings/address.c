/* The entry takes the handler's address. */
#include <linux/fs.h>

static int addr_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations addr_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= &addr_ioctl,	/* entry */
};
