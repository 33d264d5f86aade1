/*
 * red33_inc_c: a card whose port checks and part of whose switch live in
 * .c files of the same directory, #included (as some 2.6 drivers shared
 * code between two builds).
 * Shape: a lower-case macro that returns, defined in an #included .c file
 * (red33_inc_c_defs.c) at file scope, and a list of cases that return in
 * another .c file #included inside the handler's switch.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "red33_inc_c_defs.c"

#define IC_RESET	_IO('c', 1)
#define IC_READ		_IO('c', 2)

static int ic_reads;

static int ic_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	ic_reads++;
	switch (cmd) {
#include "red33_inc_c_cases.c"
	case IC_READ:
		ic_need_ready();
		return inb(IC_PORT + 2) + ic_reads;
	default:
		return -ENOTTY;
	}
	return ic_reads;
}

static struct file_operations ic_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ic_ioctl,
};

static struct miscdevice ic_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_inc_c",
	.fops	= &ic_fops,
};

static int __init ic_init(void)
{
	return misc_register(&ic_misc);
}
module_init(ic_init);
MODULE_LICENSE("GPL");
