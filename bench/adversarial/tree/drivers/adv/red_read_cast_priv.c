/*
 * red_read_cast_priv: a ring counter kept in the open file's private
 * structure.
 * Shape: a declaration initializer that reads a member through a cast
 * of file->private_data in one expression
 * (int pending = ((struct rcp_dev *)file->private_data)->pending;),
 * written back later: a read-modify-write the BKL made atomic.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define RCP_PUSH	_IO('t', 1)
#define RCP_COUNT	_IO('t', 2)

struct rcp_dev {
	int pending;
};

static struct rcp_dev rcp_dev;

static int rcp_open(struct inode *inode, struct file *file)
{
	file->private_data = &rcp_dev;
	return 0;
}

static int rcp_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int pending = ((struct rcp_dev *)file->private_data)->pending;
	struct rcp_dev *dev = file->private_data;

	switch (cmd) {
	case RCP_PUSH:
		dev->pending = pending + 1;
		return pending;
	case RCP_COUNT:
		return dev->pending;
	}
	return -ENOTTY;
}

static struct file_operations rcp_fops = {
	.owner	= THIS_MODULE,
	.open	= rcp_open,
	.ioctl	= rcp_ioctl,
};

static struct miscdevice rcp_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_read_cast_priv",
	.fops	= &rcp_fops,
};

static int __init rcp_init(void)
{
	return misc_register(&rcp_misc);
}
module_init(rcp_init);
MODULE_LICENSE("GPL");
