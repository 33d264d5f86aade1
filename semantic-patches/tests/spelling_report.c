/*
 * Report mode names every entry whatever its spelling, so that audit and
 * check see what convert rewrites: &h, a cast, an array element, a typedef,
 * and run-time assignments through a variable, a pointer and an array
 * element.
 */
#include <linux/fs.h>

typedef struct file_operations dev_fops_t;

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int d_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int e_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations a_fops = {
	.ioctl		= &a_ioctl,
};

static const struct file_operations b_fops = {
	.ioctl		= (void *)b_ioctl,
};

static struct file_operations c_fops[] = {
	{ .ioctl = c_ioctl, },
};

static dev_fops_t d_fops = {
	.ioctl		= d_ioctl,
};

static struct file_operations e_fops[2];

static int __init e_init(void)
{
	dev_fops_t *ops = &e_fops[0];

	e_fops[1].ioctl = e_ioctl;
	ops->ioctl = e_ioctl;
	return 0;
}
