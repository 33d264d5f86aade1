/*
 * One handler serves a char fops and a block_device_operations, whose
 * .ioctl keeps the old signature: the char side gets the wrapper that
 * keeps it too (and passes the inode), and the block side is untouched.
 */
#include <linux/fs.h>
#include <linux/blkdev.h>

static int ramdisk_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd != BLKFLSBUF)
		return -ENOTTY;
	return ramdisk_flush(inode->i_bdev);
}

static struct file_operations ramdisk_char_fops = {
	.ioctl		= ramdisk_ioctl,
};

static struct block_device_operations ramdisk_bd_ops = {
	.owner		= THIS_MODULE,
	.ioctl		= ramdisk_ioctl,
};
