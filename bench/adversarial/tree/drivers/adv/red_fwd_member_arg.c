/*
 * red_fwd_member_arg: a stacking layer with a generic "call the lower
 * operation" macro, as some 2.6 filesystems had.
 * Shape: #define LOWER_OP(f, op, ...) ((f)->f_op->op(__VA_ARGS__)) used as
 * LOWER_OP(lower, ioctl, ...): the member name is a macro argument, so
 * the text never has "->ioctl".
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RMA_LOW		_IO('y', 1)
#define RMA_TOP		_IO('y', 2)
#define RMA_PORT	0x330

#define LOWER_OP(f, op, ...)	((f)->f_op->op(__VA_ARGS__))
#define LOWER_HAS(f, op)	((f)->f_op && (f)->f_op->op)

static int rma_low_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd != RMA_LOW)
		return -ENOTTY;
	outb(3, RMA_PORT);
	return 33;
}

static struct file_operations rma_low_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rma_low_ioctl,
};

static struct file rma_lower = { .f_op = &rma_low_fops };

static int rma_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct file *lower = &rma_lower;

	if (cmd == RMA_TOP)
		return 44;
	if (!LOWER_HAS(lower, ioctl))
		return -ENOTTY;
	lower->f_dentry = file->f_dentry;
	return LOWER_OP(lower, ioctl, lower->f_dentry->d_inode, lower, cmd, arg);
}

static struct file_operations rma_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rma_ioctl,
};

static struct miscdevice rma_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_member_arg",
	.fops	= &rma_fops,
};

static int __init rma_init(void)
{
	return misc_register(&rma_misc);
}
module_init(rma_init);
MODULE_LICENSE("GPL");
