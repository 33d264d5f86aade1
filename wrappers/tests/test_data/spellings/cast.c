/* The entry casts the handler. */
#include <linux/fs.h>

static int cast_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations cast_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= (void *)cast_ioctl,	/* entry */
};
