/*
 * adv_entry_gnu: an old driver still using GNU field initializers.
 * Shape: "ioctl: handler," in the fops, "open:" beside it.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define EG_TOGGLE	_IO('g', 0x20)

static int eg_state, eg_opens;

static int eg_open(struct inode *inode, struct file *file)
{
	eg_opens++;
	return 0;
}

static int eg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != EG_TOGGLE)
		return -EINVAL;
	eg_state = !eg_state;
	return eg_state + eg_opens * 2;
}

static struct file_operations eg_fops = {
	owner:	THIS_MODULE,
	ioctl:	eg_ioctl,
	open:	eg_open,
};

static struct miscdevice eg_misc = {
	minor:	MISC_DYNAMIC_MINOR,
	name:	"adv_entry_gnu",
	fops:	&eg_fops,
};

static int __init eg_init(void)
{
	return misc_register(&eg_misc);
}
module_init(eg_init);
MODULE_LICENSE("GPL");
