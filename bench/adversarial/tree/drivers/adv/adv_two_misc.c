/*
 * adv_two_misc: two identical ports served by one handler; the port is
 * the device's minor.
 * Shape: one legacy handler named by two fops; the inode selects the port.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define TM_OUT	_IO('2', 1)
#define TM_IN	_IO('2', 2)

static int tm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned int port = 0x600 + iminor(inode);

	switch (cmd) {
	case TM_OUT:
		outb(arg, port);
		return 0;
	case TM_IN:
		return inb(port);
	}
	return -ENOTTY;
}

static struct file_operations tm_fops_a = {
	.owner	= THIS_MODULE,
	.ioctl	= tm_ioctl,
};

static struct file_operations tm_fops_b = {
	.owner	= THIS_MODULE,
	.ioctl	= tm_ioctl,
};

static struct miscdevice tm_a = { 200, "adv_tm_a", &tm_fops_a };
static struct miscdevice tm_b = { 201, "adv_tm_b", &tm_fops_b };

static int __init tm_init(void)
{
	int err = misc_register(&tm_a);

	return err ? err : misc_register(&tm_b);
}
module_init(tm_init);
MODULE_LICENSE("GPL");
