// options: -D pushdown
/*
 * -D pushdown never moves an initializer that needs the lock out from
 * under it: a call through a function pointer, an increment and a
 * volatile read, each alone, are split: the assignment follows the lock.
 */
int c_stamp();
#include <linux/fs.h>

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	struct a_dev *dev = file->private_data;
	int busy = dev->ops->claim(dev);

	return busy;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int users = b_users++;

	return users;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	unsigned long now = jiffies;

	return c_stamp(now);
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
