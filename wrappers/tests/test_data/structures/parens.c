/*
 * The handler of a legacy entry in parentheses: a name, its address, two
 * pairs, and a run-time assignment.
 */
#include <linux/fs.h>
#include <linux/module.h>

static int par_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations par_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= (par_ioctl),	/* entry */
};

static struct file_operations par_addr_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= (&par_ioctl),	/* entry */
};

static struct file_operations par_two_fops = {
	.ioctl		= ((par_ioctl)),	/* entry */
};

static struct file_operations par_gnu_fops = {
	ioctl:		(par_ioctl),	/* entry */
};

static struct file_operations par_rt_fops;

static int __init par_init(void)
{
	par_rt_fops.ioctl = (par_ioctl);	/* entry */
	return register_chrdev(0, "par", &par_rt_fops);
}
