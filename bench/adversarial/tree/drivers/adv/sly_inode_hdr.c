/*
 * sly_inode_hdr: per-unit gain settings of a four-unit amplifier.
 * Shape: the handler never spells `inode`, nor does any macro of this
 * file: SLY_THIS_UNIT, an argument-less macro of the kbuild-path header
 * inc/slylocal.h, names the caller's inode through a second macro of that
 * header (SLY_UNIT_OF) that calls iminor().
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "slylocal.h"

#define IH_PORT		0x2d0
#define IH_GAIN_UP	_IO('u', 1)
#define IH_GAIN		_IO('u', 2)

static int ih_gain[4];

static int ih_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == IH_GAIN_UP) {
		ih_gain[SLY_THIS_UNIT]++;
		outb(ih_gain[SLY_THIS_UNIT], IH_PORT + SLY_THIS_UNIT);
		return 0;
	}
	if (cmd == IH_GAIN)
		return ih_gain[SLY_THIS_UNIT];
	return -ENOTTY;
}

static struct file_operations ih_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ih_ioctl,
};

static struct miscdevice ih_misc = {
	.minor	= 6,
	.name	= "sly_inode_hdr",
	.fops	= &ih_fops,
};

static int __init ih_init(void)
{
	return misc_register(&ih_misc);
}
module_init(ih_init);
MODULE_LICENSE("GPL");
