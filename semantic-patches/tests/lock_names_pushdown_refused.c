// options: -D pushdown
/*
 * -D pushdown refuses a handler whose local or parameter hides what the
 * pushed-down lock calls, and names it.
 */
int a_set();
int b_set();
#include <linux/fs.h>

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int unlock_kernel = 0;

	if (arg)
		unlock_kernel = 1;
	return a_set(unlock_kernel);
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long lock_kernel)
{
	return b_set(lock_kernel);
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
