/*
 * red34_hdr_body: a driver whose handler and file_operations live in a
 * quoted header of its own directory (red34_hdr_body.h), as some 2.6
 * drivers built from a shared template kept them.
 * Shape: the .c file has no ".ioctl" and no handler; only the header it
 * includes does.  Left as it was, the build on a kernel without .ioctl
 * breaks in the header.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "red34_hdr_body.h"

static struct miscdevice hb_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_hdr_body",
	.fops	= &hb_fops,
};

static int __init hb_init(void)
{
	return misc_register(&hb_misc);
}
module_init(hb_init);
MODULE_LICENSE("GPL");
