/*
 * red34_export: a clock chip whose ioctl handler is also exported, so
 * that other modules (a sound driver, an RTC front end) can issue its
 * commands with the legacy arguments.
 * Shape: EXPORT_SYMBOL(ex_ioctl) of the .ioctl handler, declared with its
 * legacy signature in a tree header (<linux/r34clock.h>) that other
 * modules include; converting its signature breaks every caller outside
 * the run.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <linux/r34clock.h>

#define EX_PORT		0x340

static int ex_ticks;

int ex_ioctl(struct inode *inode, struct file *file,
	     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case R34CLOCK_TICK:
		ex_ticks++;
		outb(ex_ticks, EX_PORT);
		return ex_ticks;
	case R34CLOCK_GET:
		return inb(EX_PORT) + ex_ticks;
	}
	return -ENOTTY;
}
EXPORT_SYMBOL(ex_ioctl);

static struct file_operations ex_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ex_ioctl,
};

static struct miscdevice ex_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_export",
	.fops	= &ex_fops,
};

static int __init ex_init(void)
{
	return misc_register(&ex_misc);
}
module_init(ex_init);
MODULE_LICENSE("GPL");
