/* No findings: .ioctl of block and tty operations is not the VFS's. */
#include <linux/fs.h>
#include <linux/blkdev.h>
#include <linux/tty_driver.h>

static int blk_ops_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int blk_ops_tty_ioctl(struct tty_struct *tty, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

static struct block_device_operations blk_ops_bdops = {
	.owner	= THIS_MODULE,
	.ioctl	= blk_ops_ioctl,
};

static struct tty_operations blk_ops_tty_ops = {
	.ioctl	= blk_ops_tty_ioctl,
};

static struct file_operations blk_ops_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= nonseekable_open,
};
