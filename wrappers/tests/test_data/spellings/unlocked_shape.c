/* .ioctl names a function with the .unlocked_ioctl signature. */
#include <linux/fs.h>

static long shape_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	return shape_read(file, cmd, arg);
}

static struct file_operations shape_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= shape_ioctl,	/* entry */
};
