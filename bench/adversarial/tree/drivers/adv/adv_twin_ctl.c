/*
 * adv_twin_ctl: the control device of adv_twin.ko, peeking at the data
 * file's FIFO.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "adv_twin.h"

static int twin_ctl_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd != TWIN_PEEK)
		return -ENOTTY;
	if (twin_fifo.head == twin_fifo.tail)
		return -EAGAIN;
	return twin_fifo.items[twin_fifo.tail];
}

static struct file_operations twin_ctl_fops = {
	.ioctl	= twin_ctl_ioctl,
};

static struct miscdevice twin_ctl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_twin_ctl",
	.fops	= &twin_ctl_fops,
};

int twin_ctl_register(void)
{
	return misc_register(&twin_ctl_misc);
}
