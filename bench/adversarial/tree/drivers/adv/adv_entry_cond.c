/*
 * adv_entry_cond: a handler picked at load time by a module parameter.
 * Shape: a conditional run-time assignment (fops.ioctl = fast ? a : b;).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define EC_GO	_IO('C', 1)
#define EC_PORT	0x2e8

static int fast;
module_param(fast, int, 0);
static struct file_operations ec_fops;

static int ec_fast_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd != EC_GO)
		return -ENOTTY;
	outb(1, EC_PORT);
	return 1;
}

static int ec_slow_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd != EC_GO)
		return -ENOTTY;
	outb(2, EC_PORT);
	return inb(EC_PORT) & 3;
}

static struct miscdevice ec_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_entry_cond",
	.fops	= &ec_fops,
};

static int __init ec_init(void)
{
	ec_fops.owner = THIS_MODULE;
	ec_fops.ioctl = fast ? ec_fast_ioctl : ec_slow_ioctl;
	return misc_register(&ec_misc);
}
module_init(ec_init);
MODULE_LICENSE("GPL");
