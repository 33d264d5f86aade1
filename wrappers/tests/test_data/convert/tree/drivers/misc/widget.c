/* A GNU-style initializer (ioctl: handler), as old drivers wrote them. */
#include <linux/fs.h>

static int widget_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	int ret = 0;

	if (cmd == 7)
		ret = -EFAULT;
	return ret;
}

static struct file_operations widget_fops = {
	owner:		THIS_MODULE,
	ioctl:		widget_ioctl,
};
