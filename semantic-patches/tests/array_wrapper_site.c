// variant wrapper: -D wrapper
// variant multi_kernel: -D multi_kernel
// variant mutex: -D mutex -D wrapper
/*
 * Arrays of file_operations whose elements name different handlers.  A
 * wrapper goes before the fops declaration, and spatch adds one text
 * before a token: two wrappers there stopped the whole file with an
 * exception.  Where each handler takes the wrapper, both are refused with
 * the reason; pushdown needs no wrapper and converts both.  One handler
 * named by every element has one wrapper, and is converted.
 */
#include <linux/fs.h>

static int ctl_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static int st_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cmd == 2 ? 1 : -ENOTTY;
}

static struct file_operations pair_fops[2] = {
	{ .owner = THIS_MODULE, .ioctl = ctl_ioctl, },
	{ .owner = THIS_MODULE, .ioctl = st_ioctl, },
};

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 1;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 2;
}

static const struct file_operations trio_fops[] = {
	{
		.ioctl	= a_ioctl,
	},
	{
		.owner	= THIS_MODULE,
		.ioctl	= b_ioctl,
	},
	{ .ioctl = c_ioctl },
};

static int one_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 3;
}

static struct file_operations same_fops[2] = {
	{ .ioctl = one_ioctl, },
	{ .ioctl = one_ioctl, },
};
