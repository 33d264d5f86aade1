/*
 * red_fwd_local_fn: a pass-through node that looks up the lower handler
 * once and keeps it in a local function pointer.
 * Shape: int (*fn)(...) = lower->f_op->ioctl; ... fn(inode, lower, ...):
 * the call itself is through a plain local, not through ->ioctl.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RLF_POKE	_IO('b', 1)
#define RLF_PEEK	_IO('b', 2)
#define RLF_ID		_IO('b', 3)
#define RLF_PORT	0x3a8

static int rlf_low_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd == RLF_POKE) {
		outb(arg, RLF_PORT);
		return 0;
	}
	if (cmd == RLF_PEEK)
		return inb(RLF_PORT);
	return -ENOTTY;
}

static struct file_operations rlf_low_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rlf_low_ioctl,
};

static struct file rlf_low_file = { .f_op = &rlf_low_fops };

static int rlf_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct file *lower = &rlf_low_file;
	int (*fn)(struct inode *, struct file *, unsigned int, unsigned long);

	if (cmd == RLF_ID)
		return 0x51;
	fn = lower->f_op->ioctl;
	if (!fn)
		return -ENOTTY;
	return fn(inode, lower, cmd, arg);
}

static struct file_operations rlf_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rlf_ioctl,
};

static struct miscdevice rlf_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_local_fn",
	.fops	= &rlf_fops,
};

static struct miscdevice rlf_low_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_local_fn_low",
	.fops	= &rlf_low_fops,
};

static int __init rlf_init(void)
{
	return misc_register(&rlf_low_misc) ?: misc_register(&rlf_misc);
}
module_init(rlf_init);
MODULE_LICENSE("GPL");
