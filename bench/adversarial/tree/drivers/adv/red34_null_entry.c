/*
 * red34_null_entry: a card with a data node and a status node; the status
 * node has no ioctl and says so explicitly.
 * Shape: ".ioctl = NULL," in one fops and "ioctl: 0," (GNU spelling) in
 * another; only the data node's fops names a handler.  On a kernel whose
 * file_operations has no .ioctl, a left-over empty entry does not build.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define NE_GET		_IO('e', 0x11)

static int ne_value = 9;

static int ne_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != NE_GET)
		return -ENOTTY;
	return ne_value++;
}

static int ne_open(struct inode *inode, struct file *file)
{
	return 0;
}

static struct file_operations ne_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ne_ioctl,
};

static struct file_operations ne_status_fops = {
	.owner	= THIS_MODULE,
	.open	= ne_open,
	.ioctl	= NULL,
};

static struct file_operations ne_raw_fops = {
	owner:	THIS_MODULE,
	open:	ne_open,
	ioctl:	0,
};

static struct miscdevice ne_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_null_entry",
	.fops	= &ne_fops,
};

static struct miscdevice ne_status_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_null_status",
	.fops	= &ne_status_fops,
};

static struct miscdevice ne_raw_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_null_raw",
	.fops	= &ne_raw_fops,
};

static int __init ne_init(void)
{
	int ret = misc_register(&ne_misc);

	if (!ret)
		ret = misc_register(&ne_status_misc);
	if (!ret)
		ret = misc_register(&ne_raw_misc);
	return ret;
}
module_init(ne_init);
MODULE_LICENSE("GPL");
