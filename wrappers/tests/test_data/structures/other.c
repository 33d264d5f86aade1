/*
 * The same shapes around an ioctl member of other structures: none is a
 * legacy entry of a file_operations.
 */
#include <linux/fs.h>
#include <linux/tty.h>
#include <linux/blkdev.h>

struct oth_port {
	int line;
	struct tty_operations ops;
};

static int oth_tty_ioctl(struct tty_struct *tty, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

static int oth_blk_ioctl(struct block_device *bdev, fmode_t mode,
			 unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct oth_port oth_port = {
	.line = 0,
	.ops = {
		.ioctl = oth_tty_ioctl,
	},
};

static struct block_device_operations oth_bdops = {
	.ioctl = (oth_blk_ioctl),
};

static void oth_setup(struct tty_driver *driver)
{
	tty_set_operations(driver, &(struct tty_operations){ .ioctl = oth_tty_ioctl });
}
