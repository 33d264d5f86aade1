/*
 * red_xdot_core: the core half of red_xdot.ko; its fops is exported to
 * the other file of the module by name.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <asm/io.h>
#include "red_xdot.h"

static int xd_armed;

static int xd_core_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case XD_ARM:
		xd_armed = 1;
		outb(0x11, XD_PORT);
		return 0;
	case XD_STATE:
		return xd_armed;
	}
	return -ENOTTY;
}

struct file_operations xd_core_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= xd_core_ioctl,
};
