// variant wrapper: -D wrapper
/*
 * An array of fops written with designated indexes, in any order
 * ([2] = {...} before [1] = {...}, as the adversarial measure's
 * red_fops_index_array does), an index that is a constant's name, an
 * element's handler named by address or GNU style, and designated beside
 * plain elements: each element's entry converts like an element without
 * an index (it was "in a spelling spatch did not match here").
 */
#include <linux/fs.h>

#define PORT_B 1

static int ia_even_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 2 : -ENOTTY;
}

static int ia_odd_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 3 : -ENOTTY;
}

static int ib_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations ia_ports[3] = {
	[0] = { .owner = THIS_MODULE, .ioctl = ia_even_ioctl },
	[2] = { .owner = THIS_MODULE, .ioctl = ia_even_ioctl },
	[PORT_B] = {
		.owner	= THIS_MODULE,
		.ioctl	= &ia_odd_ioctl,
	},
};

static struct file_operations ib_ports[] = {
	[1] = { ioctl: ib_ioctl, },
	{ .owner = THIS_MODULE, },
};
