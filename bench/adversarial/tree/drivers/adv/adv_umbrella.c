/*
 * adv_umbrella: a small sensor reader.
 * Shape: the file's only include is a quoted umbrella header; whatever the
 * conversion needs (<linux/smp_lock.h>, <linux/mutex.h>) must be added.
 */
#include "adv_umbrella.h"

static int um_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int v;

	if (cmd != UM_READ)
		return -ENOTTY;
	v = inb(UM_PORT) | (inb(UM_PORT + 1) << 8);
	return put_user(v, (int __user *)arg);
}

static struct file_operations um_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= um_ioctl,
};

static struct miscdevice um_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_umbrella",
	.fops	= &um_fops,
};

static int __init um_init(void)
{
	return misc_register(&um_misc);
}
module_init(um_init);
MODULE_LICENSE("GPL");
