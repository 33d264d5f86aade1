/*
 * red34_redef: a sampler that must be armed before it is read.
 * Shape: r34_need() of the tree header <linux/r34gate.h> is harmless
 * there; this file #undefs it and defines it again as a statement macro
 * that returns, after the handler's first write to shared state.  A reader
 * of the header's definition alone sees no exit.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <linux/r34gate.h>

#undef r34_need
#define r34_need(x)	do { if (!(x)) return -ENODEV; } while (0)

#define RD_ARM		_IO('r', 0x41)
#define RD_GET		_IO('r', 0x42)

static int rd_calls;
static int rd_armed;

static int rd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	rd_calls++;
	if (cmd == RD_ARM) {
		rd_armed = arg != 0;
		return 0;
	}
	r34_need(rd_armed);
	if (cmd != RD_GET)
		return -ENOTTY;
	return inb(R34GATE_PORT + 1) + rd_calls;
}

static struct file_operations rd_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rd_ioctl,
};

static struct miscdevice rd_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_redef",
	.fops	= &rd_fops,
};

static int __init rd_init(void)
{
	return misc_register(&rd_misc);
}
module_init(rd_init);
MODULE_LICENSE("GPL");
