/*
 * red_xdot_front: the front half of red_xdot.ko.
 * Shape: forwarding by value through the other file's fops object,
 * xd_core_fops.ioctl(inode, file, cmd, arg) (a '.', not '->'), with a
 * test (xd_core_fops.ioctl != NULL) before it.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "red_xdot.h"

static int xd_front_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd == XD_HELLO)
		return 5;
	if (xd_core_fops.ioctl != NULL)
		return xd_core_fops.ioctl(inode, file, cmd, arg);
	return -ENOTTY;
}

static struct file_operations xd_front_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= xd_front_ioctl,
};

static struct miscdevice xd_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_xdot",
	.fops	= &xd_front_fops,
};

static int __init xd_init(void)
{
	return misc_register(&xd_misc);
}
module_init(xd_init);
MODULE_LICENSE("GPL");
