// options: -D mutex -D wrapper
/*
 * -D mutex with the wrapper strategy: the wrapper takes the private mutex
 * around the body.
 */
#include <linux/fs.h>

#define BEEP_ON		_IO('B', 1)

static int beep_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd != BEEP_ON)
		return -ENOTTY;
	beep_start(iminor(inode));
	return 0;
}

static struct file_operations beep_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= beep_ioctl,
};
