/*
 * adv_regchr: an old-style register_chrdev driver for a port bank.
 * Shape: MINOR(inode->i_rdev) initializer, inb/outb in the body,
 * a nested if/else ladder instead of a switch.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/ioport.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define REGCHR_MAJOR	231
#define REGCHR_BASE	0x378
#define REGCHR_WRITE	0x7701
#define REGCHR_READ	0x7702
#define REGCHR_STROBE	0x7703

static int regchr_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	unsigned int port = REGCHR_BASE + MINOR(inode->i_rdev);
	unsigned char b;

	if (cmd == REGCHR_WRITE) {
		outb(arg & 0xff, port);
		return 0;
	} else if (cmd == REGCHR_READ) {
		b = inb(port);
		if (put_user(b, (unsigned char __user *)arg))
			return -EFAULT;
		return 0;
	} else if (cmd == REGCHR_STROBE) {
		outb(1, port + 2);
		outb(0, port + 2);
	} else
		return -EINVAL;
	return 0;
}

static struct file_operations regchr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= regchr_ioctl,
};

static int __init regchr_init(void)
{
	if (!request_region(REGCHR_BASE, 3, "adv_regchr"))
		return -EBUSY;
	return register_chrdev(REGCHR_MAJOR, "adv_regchr", &regchr_fops);
}

module_init(regchr_init);
MODULE_LICENSE("GPL");
