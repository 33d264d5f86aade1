/*
 * red_fwd_macro: a filter layer over a lower device of the same file.
 * Shape: the forwarding call f_op->ioctl(...) is written only inside a
 * macro of a tree header (<linux/redstack.h>); the handler text has no
 * "->ioctl(" of its own.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/redstack.h>
#include <asm/io.h>

#define RFM_LOW_SET	_IO('a', 1)
#define RFM_LOW_GET	_IO('a', 2)
#define RFM_FILTER	_IO('a', 3)

static int rfm_value;

static int rfm_low_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RFM_LOW_SET:
		rfm_value = arg;
		outb(arg, REDSTACK_PORT);
		return 0;
	case RFM_LOW_GET:
		return rfm_value;
	}
	return -ENOTTY;
}

static struct file_operations rfm_low_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rfm_low_ioctl,
};

static struct file rfm_low_file;

static int rfm_open(struct inode *inode, struct file *file)
{
	rfm_low_file.f_op = &rfm_low_fops;
	rfm_low_file.f_dentry = file->f_dentry;
	file->private_data = &rfm_low_file;
	return 0;
}

static int rfm_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct file *lf = file->private_data;

	if (cmd == RFM_FILTER)
		return 1;
	return redstack_pass(lf, cmd, arg);
}

static struct file_operations rfm_fops = {
	.owner	= THIS_MODULE,
	.open	= rfm_open,
	.ioctl	= rfm_ioctl,
};

static struct miscdevice rfm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_macro",
	.fops	= &rfm_fops,
};

static struct miscdevice rfm_low_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_macro_low",
	.fops	= &rfm_low_fops,
};

static int __init rfm_init(void)
{
	int err = misc_register(&rfm_low_misc);

	if (err)
		return err;
	return misc_register(&rfm_misc);
}
module_init(rfm_init);
MODULE_LICENSE("GPL");
