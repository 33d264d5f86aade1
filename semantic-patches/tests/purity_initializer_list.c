/*
 * SmPL does not look into a { ... } initializer, so the rule reads its
 * text: an increment or a call there makes auto pick the wrapper, while
 * a list of constants and pure calls keeps pushdown.
 */
int a_submit();
int b_alloc_id();
int c_submit();
int b_submit();
#include <linux/fs.h>

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	struct req rq = { .id = a_next_id++, .cmd = cmd };

	return a_submit(&rq);
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	struct req rq = { .id = b_alloc_id(), .cmd = cmd };

	return b_submit(&rq);
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	struct req rq = { .unit = iminor(inode), .cmd = cmd, .len = sizeof(long) };

	return c_submit(&rq);
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
