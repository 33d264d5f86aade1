/*
 * adv_entry_array: a card with a control and a status node.
 * Shape: an array of file_operations, one legacy entry in each element,
 * registered by index.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define EA_CTRL		_IO('A', 1)
#define EA_STATUS	_IO('A', 2)

static int ea_ctrl_state;

static int ea_ctrl_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd != EA_CTRL)
		return -ENOTTY;
	ea_ctrl_state = (int)arg;
	return 0;
}

static int ea_status_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	if (cmd != EA_STATUS)
		return -ENOTTY;
	return ea_ctrl_state;
}

static struct file_operations ea_fops[2] = {
	{ .owner = THIS_MODULE, .ioctl = ea_ctrl_ioctl, },
	{ .owner = THIS_MODULE, .ioctl = ea_status_ioctl, },
};

static struct miscdevice ea_misc[2] = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "adv_ea_ctrl", .fops = &ea_fops[0] },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "adv_ea_status", .fops = &ea_fops[1] },
};

static int __init ea_init(void)
{
	int i, err;

	for (i = 0; i < 2; i++) {
		err = misc_register(&ea_misc[i]);
		if (err)
			return err;
	}
	return 0;
}
module_init(ea_init);
MODULE_LICENSE("GPL");
