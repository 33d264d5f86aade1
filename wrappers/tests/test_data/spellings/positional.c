/* A positional (2.4 style) initializer: refused with a reason. */
#include <linux/fs.h>

static int pos_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations pos_fops = {
	THIS_MODULE,
	NULL,		/* llseek */
	NULL,		/* read */
	NULL,		/* aio_read */
	NULL,		/* write */
	NULL,		/* aio_write */
	NULL,		/* readdir */
	NULL,		/* poll */
	pos_ioctl,	/* entry */
};
