/*
 * red_ret_comma_kbuild: a gate whose value filter is in a header found
 * only through the kbuild include path (inc/redlocal.h).
 * Shape: a lower-case macro whose comma expression holds a statement
 * expression that returns; used as an assignment's right side and as a
 * call argument.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "redlocal.h"

#define RCK_OPEN	_IO('s', 1)
#define RCK_STATE	_IO('s', 2)
#define RCK_PORT	0x320

struct rck_dev {
	int gated;
	int state;
};

static struct rck_dev rck_dev;

static int rck_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct rck_dev *dev = &rck_dev;
	int v;

	switch (cmd) {
	case RCK_OPEN:
		v = redlocal_gate(dev, arg | (dev->gated << 7));
		dev->state = v;
		outb(redlocal_gate(dev, v), RCK_PORT);
		return 0;
	case RCK_STATE:
		return dev->state * 100 + dev->gated;
	}
	return -ENOTTY;
}

static struct file_operations rck_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rck_ioctl,
};

static struct miscdevice rck_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_ret_comma_kbuild",
	.fops	= &rck_fops,
};

static int __init rck_init(void)
{
	return misc_register(&rck_misc);
}
module_init(rck_init);
MODULE_LICENSE("GPL");
