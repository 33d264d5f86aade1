/*
 * Initializers that write a variable must stay under the lock, like the
 * legacy body: "x++", "--x", an assignment inside the initializer and a
 * compound assignment are each split (the assignment follows the lock).
 * "==" and "<=" write nothing: the last handler is not split.
 */
#include <linux/fs.h>

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int serial = a_next_serial++;

	return serial;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int left = --b_credits;

	return left;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	unsigned int prev = (c_last_cmd = cmd);

	return prev;
}

static int d_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	long total = (d_total += arg);

	return total > 0;
}

static int e_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int same = (cmd == 5), small = (arg <= 4);

	return same && small;
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
static struct file_operations d_fops = { .ioctl = d_ioctl, };
static struct file_operations e_fops = { .ioctl = e_ioctl, };
