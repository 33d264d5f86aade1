/* The entry is in an element of an array of file_operations. */
#include <linux/fs.h>

static int arr_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations arr_fops[] = {
	{
		.owner		= THIS_MODULE,
		.ioctl		= arr_ioctl,	/* entry */
	},
};
