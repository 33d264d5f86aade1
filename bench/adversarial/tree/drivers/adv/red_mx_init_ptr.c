/*
 * red_mx_init_ptr: a sensor whose load routine reads the first sample
 * through the ioctl handler, found through a typed function pointer.
 * Shape: module init takes the handler's address into a local
 * int (*probe)(struct inode *, struct file *, ...) and calls it; the
 * handler is never named in a call.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RMI_SAMPLE	_IO('k', 1)
#define RMI_LAST	_IO('k', 2)
#define RMI_PORT	0x308

static int rmi_last;

static int rmi_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RMI_SAMPLE:
		rmi_last = inb(RMI_PORT);
		return rmi_last;
	case RMI_LAST:
		return rmi_last;
	}
	return -ENOTTY;
}

static struct file_operations rmi_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rmi_ioctl,
};

static struct miscdevice rmi_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mx_init_ptr",
	.fops	= &rmi_fops,
};

static int __init rmi_init(void)
{
	int (*probe)(struct inode *, struct file *, unsigned int, unsigned long);

	probe = rmi_ioctl;
	if (probe(NULL, NULL, RMI_SAMPLE, 0) < 0)
		return -ENODEV;
	return misc_register(&rmi_misc);
}
module_init(rmi_init);
MODULE_LICENSE("GPL");
