/*
 * red_fwd_ternary_fn: a shim that falls back to its own handler when the
 * lower node has none.
 * Shape: the called function is chosen by a conditional expression,
 * (lower->f_op->ioctl ? lower->f_op->ioctl : rtf_none)(lower inode, ...).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RTF_KICK	_IO('g', 1)
#define RTF_ASK		_IO('g', 2)
#define RTF_PORT	0x3d8

static int rtf_none(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return -ENOSYS;
}

static int rtf_low_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd == RTF_KICK) {
		outb(arg, RTF_PORT);
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations rtf_low_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rtf_low_ioctl,
};

static struct file rtf_lower;

static int rtf_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct file *lower = &rtf_lower;

	if (cmd == RTF_ASK)
		return 77;
	lower->f_op = &rtf_low_fops;
	lower->f_dentry = file->f_dentry;
	return (lower->f_op->ioctl ? lower->f_op->ioctl : rtf_none)
		(lower->f_dentry->d_inode, lower, cmd, arg);
}

static struct file_operations rtf_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rtf_ioctl,
};

static struct miscdevice rtf_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_ternary_fn",
	.fops	= &rtf_fops,
};

static int __init rtf_init(void)
{
	return misc_register(&rtf_misc);
}
module_init(rtf_init);
MODULE_LICENSE("GPL");
