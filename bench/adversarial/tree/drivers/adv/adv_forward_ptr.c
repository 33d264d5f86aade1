/*
 * adv_forward_ptr: a front device that passes unknown commands to a
 * lower device of the same driver, as stacking drivers did.
 * Shape: forwarding through a file_operations pointer,
 * lower->ioctl(inode, file, cmd, arg); both fops are legacy.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define FP_UPPER_PING	_IO('u', 1)
#define FP_LOWER_KICK	_IO('u', 2)
#define FP_LOWER_READ	_IO('u', 3)
#define FP_PORT		0x220

static int fp_lower_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FP_LOWER_KICK:
		outb(1, FP_PORT);
		return 0;
	case FP_LOWER_READ:
		return inb(FP_PORT);
	}
	return -ENOTTY;
}

static struct file_operations fp_lower_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fp_lower_ioctl,
};

static const struct file_operations *fp_lower = &fp_lower_fops;

static int fp_upper_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd == FP_UPPER_PING)
		return 42;
	if (fp_lower && fp_lower->ioctl)
		return fp_lower->ioctl(inode, file, cmd, arg);
	return -ENOTTY;
}

static struct file_operations fp_upper_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fp_upper_ioctl,
};

static struct miscdevice fp_upper_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_forward_upper",
	.fops	= &fp_upper_fops,
};

static struct miscdevice fp_lower_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_forward_lower",
	.fops	= &fp_lower_fops,
};

static int __init fp_init(void)
{
	int err = misc_register(&fp_lower_misc);

	return err ? err : misc_register(&fp_upper_misc);
}
module_init(fp_init);
MODULE_LICENSE("GPL");
