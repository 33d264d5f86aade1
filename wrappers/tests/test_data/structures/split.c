/*
 * A legacy entry whose tokens are split: a line splice inside the member
 * name, and a designator and its `=` on lines of their own.  Each is one
 * entry, reported once.
 */
#include <linux/fs.h>
#include <linux/module.h>

static int spl_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static struct file_operations spl_fops = {
	.owner		= THIS_MODULE,
	.io\
ctl		= spl_ioctl,	/* entry above */
};

static struct file_operations spl_apart_fops = {
	. ioctl	/* entry */
		= spl_ioctl,
};

static struct file_operations spl_dot_fops = {
	.	/* entry */
	ioctl = spl_ioctl,
};

static struct file_operations spl_tail_fops = {
	.ioct\
l = spl_ioctl,	/* entry above */
};
