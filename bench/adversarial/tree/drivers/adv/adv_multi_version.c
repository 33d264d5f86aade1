/*
 * adv_multi_version: a vendor driver that tests LINUX_VERSION_CODE.
 * Shape: multi-kernel glue by version number instead of HAVE_UNLOCKED_IOCTL;
 * the legacy entry is the only one below 2.6.11.
 */
#include <linux/version.h>
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define MV_OUT	_IO('V', 1)
#define MV_IN	_IO('V', 2)
#define MV_PORT	0x260

static int mv_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MV_OUT:
		outb(arg, MV_PORT);
		return 0;
	case MV_IN:
		return inb(MV_PORT);
	}
	return -ENOTTY;
}

static struct file_operations mv_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= mv_ioctl,
};

static struct miscdevice mv_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_multi_version",
	.fops	= &mv_fops,
};

static int __init mv_init(void)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 11)
	printk(KERN_INFO "adv_multi_version: legacy ioctl path\n");
#endif
	return misc_register(&mv_misc);
}
module_init(mv_init);
MODULE_LICENSE("GPL");
