/*
 * Calls through a function pointer in any spelling run code the rule
 * cannot see: "(*fp)(x)" beside a second early declaration gets the
 * wrapper; "table[i](x)" and "dev->ops->op(x)", alone, are split.
 */
#include <linux/fs.h>

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int (*probe)(unsigned long) = a_default_probe;
	int found = (*probe)(arg);

	return found;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int state = b_handlers[cmd & 3](arg);

	return state;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	struct c_dev *dev = file->private_data;
	int level = dev->ops->get_level(dev);

	return level;
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
