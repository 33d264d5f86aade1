/*
 * A volatile read is an access the legacy body made under the lock: a
 * cast to a volatile pointer, a global the file declares volatile, and
 * jiffies (volatile in the kernel's headers, which the rule does not
 * read) each alone is split: the assignment follows the lock.  The word
 * in a string reads nothing: the last handler is not split.
 */
int c_wait();
int d_set_name();
#include <linux/fs.h>

static volatile int hw_ready;

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	u32 status = *(volatile u32 *)0xfe000010UL;

	return status;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int ready = hw_ready;

	return ready;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	unsigned long start = jiffies;

	return c_wait(start, arg);
}

static int d_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	const char *name = "volatile";

	return d_set_name(name);
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
static struct file_operations d_fops = { .ioctl = d_ioctl, };
