/*
 * red33_fops_copy: a dual-mode serial card that builds its two nodes'
 * file_operations at init from one template.
 * Shape: *fops = base_fops; fops->ioctl = h; through a pointer parameter
 * of a helper, and memcpy(&fc_ctl_fops, &fc_base_fops, sizeof(...))
 * followed by (&fc_ctl_fops)->ioctl = ...; the template itself has no
 * ioctl entry.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/string.h>
#include <asm/io.h>

#define FC_BAUD		_IO('s', 1)
#define FC_CTL		_IO('s', 2)
#define FC_PORT		0x3e8

static int fc_baud;

static int fc_data_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd != FC_BAUD)
		return -ENOTTY;
	outb(arg, FC_PORT + 3);
	fc_baud = arg;
	return fc_baud;
}

static int fc_ctl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd != FC_CTL)
		return -ENOTTY;
	return inb(FC_PORT + 5) + fc_baud;
}

static struct file_operations fc_base_fops = {
	.owner	= THIS_MODULE,
};

static struct file_operations fc_data_fops;
static struct file_operations fc_ctl_fops;

static void fc_make_fops(struct file_operations *fops,
			 int (*handler)(struct inode *, struct file *,
					unsigned int, unsigned long))
{
	*fops = fc_base_fops;
	fops->ioctl = handler;
}

static struct miscdevice fc_data_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_fc_data",
	.fops	= &fc_data_fops,
};

static struct miscdevice fc_ctl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_fc_ctl",
	.fops	= &fc_ctl_fops,
};

static int __init fc_init(void)
{
	int err;

	fc_make_fops(&fc_data_fops, fc_data_ioctl);
	memcpy(&fc_ctl_fops, &fc_base_fops, sizeof(fc_ctl_fops));
	(&fc_ctl_fops)->ioctl = fc_ctl_ioctl;
	err = misc_register(&fc_data_misc);
	if (err)
		return err;
	return misc_register(&fc_ctl_misc);
}
module_init(fc_init);
MODULE_LICENSE("GPL");
