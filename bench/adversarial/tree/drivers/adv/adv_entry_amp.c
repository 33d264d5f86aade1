/*
 * adv_entry_amp: a const fops naming its handler with an ampersand and a
 * cast, the way some drivers silenced old prototype warnings.
 * Shape: ".ioctl = &handler" in a const fops; the entry on its own line
 * after a brace on the next line.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define AM_GET	_IO('&', 1)

static int am_count;

static int am_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cmd == AM_GET ? ++am_count : -ENOTTY;
}

static const struct file_operations am_fops =
{
	.owner	= THIS_MODULE,
	.ioctl	= &am_ioctl,
};

static struct miscdevice am_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_entry_amp",
	.fops	= &am_fops,
};

static int __init am_init(void)
{
	return misc_register(&am_misc);
}
module_init(am_init);
MODULE_LICENSE("GPL");
