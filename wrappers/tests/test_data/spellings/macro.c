/* The handler is named through a macro: refused with a reason. */
#include <linux/fs.h>

#define MAC(x) mac_##x

static int mac_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations mac_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= MAC(ioctl),	/* entry */
};
