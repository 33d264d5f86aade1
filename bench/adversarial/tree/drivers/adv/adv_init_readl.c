/*
 * adv_init_readl: a memory-mapped controller.
 * Shape: a readl() of the mapped registers in a declaration initializer,
 * the mapping found through file->private_data.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define IR_CTRL		0x04
#define IR_GETCTRL	_IOR('m', 1, u32)
#define IR_SETBITS	_IOW('m', 2, u32)

struct ir_dev {
	void __iomem *base;
};
static struct ir_dev ir_dev;

static int ir_open(struct inode *inode, struct file *file)
{
	file->private_data = &ir_dev;
	return 0;
}

static int ir_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct ir_dev *d = file->private_data;
	u32 ctl = readl(d->base + IR_CTRL);

	switch (cmd) {
	case IR_GETCTRL:
		return put_user(ctl, (u32 __user *)arg);
	case IR_SETBITS:
		writel(ctl | (u32)arg, d->base + IR_CTRL);
		return 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations ir_fops = {
	.owner	= THIS_MODULE,
	.open	= ir_open,
	.ioctl	= ir_ioctl,
};

static struct miscdevice ir_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_init_readl",
	.fops	= &ir_fops,
};

static int __init ir_init(void)
{
	ir_dev.base = ioremap(0xfe000000, 0x100);
	return misc_register(&ir_misc);
}
module_init(ir_init);
MODULE_LICENSE("GPL");
