/* Refused: the handler writes its inode parameter. */
#include <linux/fs.h>

static int iw_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	inode = NULL;
	return 0;
}

static const struct file_operations iw_fops = {
	.ioctl		= iw_ioctl,
};
