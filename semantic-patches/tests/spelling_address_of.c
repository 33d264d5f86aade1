/*
 * ".ioctl = &h" names the handler as well as ".ioctl = h": the entry is
 * converted, and the new entry names the function plainly.
 */
#include <linux/fs.h>
void dial_reset();

static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd != DIAL_RESET)
		return -ENOTTY;
	dial_reset();
	return 0;
}

static struct file_operations dial_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= &dial_ioctl,
};
