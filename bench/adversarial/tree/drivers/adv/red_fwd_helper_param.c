/*
 * red_fwd_helper_param: a library-style helper that runs a command on
 * any fops it is handed, used by a front node for its back node.
 * Shape: the call ops->ioctl(i, f, c, a) is in a helper whose ops is a
 * parameter (const struct file_operations *ops), fed the address of a
 * fops of the same file.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RHP_SET		_IO('h', 1)
#define RHP_GET		_IO('h', 2)
#define RHP_PORT	0x3e0

static int rhp_level;

static int rhp_run(const struct file_operations *ops, struct inode *i,
		   struct file *f, unsigned int c, unsigned long a)
{
	if (!ops || !ops->ioctl)
		return -ENOTTY;
	return ops->ioctl(i, f, c, a);
}

static int rhp_back_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd == RHP_SET) {
		rhp_level = arg;
		outb(arg, RHP_PORT);
		return 0;
	}
	return cmd == RHP_GET ? rhp_level : -ENOTTY;
}

static struct file_operations rhp_back_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rhp_back_ioctl,
};

static int rhp_front_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	return rhp_run(&rhp_back_fops, inode, file, cmd, arg + 1);
}

static struct file_operations rhp_front_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rhp_front_ioctl,
};

static struct miscdevice rhp_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_helper_param",
	.fops	= &rhp_front_fops,
};

static int __init rhp_init(void)
{
	return misc_register(&rhp_misc);
}
module_init(rhp_init);
MODULE_LICENSE("GPL");
