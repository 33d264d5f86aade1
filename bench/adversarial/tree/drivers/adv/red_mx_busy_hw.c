/*
 * red_mx_busy_hw: a serial engine that spins on its busy flag before each
 * byte.
 * Shape: a sleeping wait on hardware only, spelt through a macro of an
 * arch header of the tree (while (red_hw_busy()) msleep(1);) inside a
 * do/while with a counter; no state another ioctl sets.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/delay.h>
#include <asm/io.h>
#include <asm/red_hw.h>

#define RBH_SEND	_IO('n', 1)

static int rbh_sent;

static int rbh_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int tries = 0;

	if (cmd != RBH_SEND)
		return -ENOTTY;
	do {
		if (!red_hw_busy())
			break;
		msleep(1);
	} while (++tries < 50);
	if (tries >= 50)
		return -ETIMEDOUT;
	outb(arg, RED_HW_BASE + 1);
	return ++rbh_sent;
}

static struct file_operations rbh_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rbh_ioctl,
};

static struct miscdevice rbh_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mx_busy_hw",
	.fops	= &rbh_fops,
};

static int __init rbh_init(void)
{
	return misc_register(&rbh_misc);
}
module_init(rbh_init);
MODULE_LICENSE("GPL");
