/* Same-file handler that uses the inode: converted by pushdown. */
#include <linux/fs.h>
#include <linux/miscdevice.h>

static int ds1620_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	int minor = iminor(inode);

	switch (cmd) {
	case 1:
		return minor;
	default:
		return -ENOIOCTLCMD;
	}
}

static const struct file_operations ds1620_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= ds1620_ioctl,
};
