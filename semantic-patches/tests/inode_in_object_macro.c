/*
 * An object-like macro, continued on a second line, names the inode:
 * the handler that uses it gets the derived inode too.
 */
#include <linux/fs.h>
void dimmer_write();

#define DIMMER_DEV \
	(&dimmers[iminor(inode)])

static int dimmer_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd != DIMMER_SET)
		return -ENOTTY;
	dimmer_write(DIMMER_DEV, arg);
	return 0;
}

static struct file_operations dimmer_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= dimmer_ioctl,
};
