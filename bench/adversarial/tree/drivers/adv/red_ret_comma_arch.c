/*
 * red_ret_comma_arch: a DSP loader that bails out when the chip is busy.
 * Shape: RED_HW_BAIL(red_hw_busy()) from an arch header of the tree
 * (<asm/red_hw.h>): an upper-case if-return macro whose return value is
 * a comma expression that writes a register.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <asm/red_hw.h>

#define RCA_LOAD	_IO('r', 1)
#define RCA_COUNT	_IO('r', 2)

static int rca_loads;

static int rca_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd == RCA_COUNT)
		return rca_loads;
	if (cmd != RCA_LOAD)
		return -ENOTTY;
	RED_HW_BAIL(red_hw_busy() || arg == 3);
	outb(arg, RED_HW_BASE + 2);
	return ++rca_loads;
}

static struct file_operations rca_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rca_ioctl,
};

static struct miscdevice rca_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_ret_comma_arch",
	.fops	= &rca_fops,
};

static int __init rca_init(void)
{
	return misc_register(&rca_misc);
}
module_init(rca_init);
MODULE_LICENSE("GPL");
