/*
 * adv_twin_data: the data device of adv_twin.ko.
 * Shape: a two-file module whose files share state; each file has a
 * legacy handler, so a per-file lock would not exclude the other file.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include "adv_twin.h"

struct twin_fifo twin_fifo;

static int twin_data_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	struct twin_fifo *f = &twin_fifo;
	int v;

	switch (cmd) {
	case TWIN_PUT:
		if (get_user(v, (int __user *)arg))
			return -EFAULT;
		if ((f->head + 1) % 16 == f->tail)
			return -ENOSPC;
		f->items[f->head] = v;
		f->head = (f->head + 1) % 16;
		return 0;
	case TWIN_TAKE:
		if (f->head == f->tail)
			return -EAGAIN;
		v = f->items[f->tail];
		f->tail = (f->tail + 1) % 16;
		return put_user(v, (int __user *)arg);
	}
	return -ENOTTY;
}

static struct file_operations twin_data_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= twin_data_ioctl,
};

static struct miscdevice twin_data_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_twin_data",
	.fops	= &twin_data_fops,
};

static int __init twin_init(void)
{
	int err = misc_register(&twin_data_misc);

	return err ? err : twin_ctl_register();
}
module_init(twin_init);
MODULE_LICENSE("GPL");
