// SPDX-License-Identifier: GPL-2.0
/* pluvio: a fops long enough that its first line is out of a hunk's context. */
#include <linux/fs.h>
#include <linux/module.h>

static int pluvio_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static long pluvio_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static const struct file_operations pluvio_fops = {
	.owner		= THIS_MODULE,
	.llseek		= no_llseek,
	.read		= NULL,
	.write		= NULL,
	.poll		= NULL,
	.mmap		= NULL,
	.open		= nonseekable_open,
	.release	= NULL,
	.fasync		= NULL,
	.unlocked_ioctl	= pluvio_unlocked,
	.compat_ioctl	= pluvio_unlocked,
};
MODULE_LICENSE("GPL");
