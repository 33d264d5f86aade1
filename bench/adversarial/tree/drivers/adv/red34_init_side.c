/*
 * red34_init_side: a sequencer that numbers its commands.
 * Shape: declaration initializers with side effects on shared state,
 * written through function-like macros of the kbuild-path header
 * inc/red34local.h (int seq = R34_NEXT_SEQ(dev); a pre-increment of a
 * member) and of a static local (int nth = ++is_nth;), and one that
 * latches the hardware (int st = R34_LATCH(dev);).  Under the BKL each
 * was atomic with the body; moved before a pushed-down lock, a racing
 * call's number is lost or doubled.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "red34local.h"

#define IS_NEXT		_IO('s', 0xa1)
#define IS_STAT		_IO('s', 0xa2)

static struct r34_dev is_dev = { .port = 0x300 };

static int is_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	static int is_nth;
	struct r34_dev *dev = &is_dev;
	int seq = R34_NEXT_SEQ(dev);
	int nth = ++is_nth;
	int st = R34_LATCH(dev);

	switch (cmd) {
	case IS_NEXT:
		dev->users = seq + nth;
		outb(seq, dev->port);
		return dev->users;
	case IS_STAT:
		return st + dev->seq;
	}
	return -ENOTTY;
}

static struct file_operations is_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= is_ioctl,
};

static struct miscdevice is_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_init_side",
	.fops	= &is_fops,
};

static int __init is_init(void)
{
	return misc_register(&is_misc);
}
module_init(is_init);
MODULE_LICENSE("GPL");
