/*
 * adv_hidden_asm: a control register behind an error latch.
 * Shape: ADV_CHECK_PORT() of <asm/adv_regs.h> (arch/x86/include) reads the
 * hardware and returns -EIO from the handler.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <asm/adv_regs.h>

#define HASM_CTRL	0x4801
#define HASM_RESET	0x4802

static int hasm_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case HASM_CTRL:
		ADV_CHECK_PORT();
		outb(arg, ADV_REG_CTRL);
		return 0;
	case HASM_RESET:
		outb(0, ADV_REG_ERR);
		ADV_CHECK_PORT();
		return 1;
	default:
		return -EINVAL;
	}
}

static struct file_operations hasm_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hasm_ioctl,
};

static struct miscdevice hasm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_hidden_asm",
	.fops	= &hasm_fops,
};

static int __init hasm_init(void)
{
	return misc_register(&hasm_misc);
}
module_init(hasm_init);
MODULE_LICENSE("GPL");
