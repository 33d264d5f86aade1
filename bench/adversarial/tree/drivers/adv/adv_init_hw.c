/*
 * adv_init_hw: a board whose status register is read for every command.
 * Shape: a declaration initializer that reads the hardware through a macro
 * of a tree header (int st = BOARD_STATUS;): under pushdown that read
 * would happen before the lock.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/advboard.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define IH_STATUS	_IOR('i', 1, int)
#define IH_WRITE	_IOW('i', 2, int)

static int ih_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int st = BOARD_STATUS;

	switch (cmd) {
	case IH_STATUS:
		return put_user(st, (int __user *)arg);
	case IH_WRITE:
		if (st & 0x80)
			return -EBUSY;
		outb(arg, ADVBOARD_DATA_REG);
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations ih_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ih_ioctl,
};

static struct miscdevice ih_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_init_hw",
	.fops	= &ih_fops,
};

static int __init ih_init(void)
{
	return misc_register(&ih_misc);
}
module_init(ih_init);
MODULE_LICENSE("GPL");
