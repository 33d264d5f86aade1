/*
 * adv_stack_upper: the upper half of adv_stack.ko.  Its open makes a lower
 * file whose f_op is the lower fops; unknown commands are forwarded the
 * way eCryptfs forwarded them: lower_file->f_op->ioctl(...).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "adv_stack.h"

static struct file stack_lower_file;

static int stack_upper_open(struct inode *inode, struct file *file)
{
	stack_lower_file.f_op = &stack_lower_fops;
	stack_lower_file.f_dentry = file->f_dentry;
	file->private_data = &stack_lower_file;
	return 0;
}

static int stack_upper_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	struct file *lower_file = file->private_data;
	int rc = -ENOTTY;

	if (cmd == STACK_HELLO)
		return 7;
	if (lower_file && lower_file->f_op && lower_file->f_op->ioctl)
		rc = lower_file->f_op->ioctl(inode, lower_file, cmd, arg);
	return rc;
}

static struct file_operations stack_upper_fops = {
	.owner	= THIS_MODULE,
	.open	= stack_upper_open,
	.ioctl	= stack_upper_ioctl,
};

static struct miscdevice stack_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_stack",
	.fops	= &stack_upper_fops,
};

static int __init stack_init(void)
{
	return misc_register(&stack_misc);
}
module_init(stack_init);
MODULE_LICENSE("GPL");
