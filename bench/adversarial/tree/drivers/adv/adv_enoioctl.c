/*
 * adv_enoioctl: unknown commands answered through a helper of the file.
 * Shape: -ENOIOCTLCMD returned via a helper, not written in the handler.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define EN_HELLO	_IO('E', 1)

static int en_unknown(unsigned int cmd)
{
	printk(KERN_DEBUG "adv_enoioctl: unknown command %x\n", cmd);
	return -ENOIOCTLCMD;
}

static int en_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == EN_HELLO)
		return 1;
	return en_unknown(cmd);
}

static struct file_operations en_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= en_ioctl,
};

static struct miscdevice en_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_enoioctl",
	.fops	= &en_fops,
};

static int __init en_init(void)
{
	return misc_register(&en_misc);
}
module_init(en_init);
MODULE_LICENSE("GPL");
