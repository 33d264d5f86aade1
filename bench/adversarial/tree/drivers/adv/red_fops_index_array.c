/*
 * red_fops_index_array: three ports of one card, each with its own fops
 * in one array written with designated indexes, and a control node that
 * reaches a port's handler through the array by value.
 * Shape: struct file_operations a[3] = { [0] = {...}, [2] = {...},
 * [1] = {...} } (indexes out of order, two handlers) and
 * a[n].ioctl(inode, file, cmd, arg).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RIA_PORT_ID	_IO('x', 1)
#define RIA_CTL_SEND	_IO('x', 2)
#define RIA_BASE	0x328

static int ria_even_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	outb(cmd & 0xff, RIA_BASE);
	return cmd == RIA_PORT_ID ? 2 : -ENOTTY;
}

static int ria_odd_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return cmd == RIA_PORT_ID ? inb(RIA_BASE + 1) + 1 : -ENOTTY;
}

static struct file_operations ria_ports[3] = {
	[0] = { .owner = THIS_MODULE, .ioctl = ria_even_ioctl },
	[2] = { .owner = THIS_MODULE, .ioctl = ria_even_ioctl },
	[1] = { .owner = THIS_MODULE, .ioctl = ria_odd_ioctl },
};

static int ria_ctl_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd != RIA_CTL_SEND)
		return -ENOTTY;
	return ria_ports[arg % 3].ioctl(inode, file, RIA_PORT_ID, 0) * 10;
}

static struct file_operations ria_ctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ria_ctl_ioctl,
};

static struct miscdevice ria_misc[4] = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red_ria0", .fops = &ria_ports[0] },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red_ria1", .fops = &ria_ports[1] },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red_ria2", .fops = &ria_ports[2] },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red_ria_ctl", .fops = &ria_ctl_fops },
};

static int __init ria_init(void)
{
	int i, err;

	for (i = 0; i < 4; i++) {
		err = misc_register(&ria_misc[i]);
		if (err)
			return err;
	}
	return 0;
}
module_init(ria_init);
MODULE_LICENSE("GPL");
