/*
 * adv_inode_ifdef: a handler that names the inode only in debug builds.
 * Shape: the only use of inode is compiled out (#ifdef IF_DEBUG); an inode
 * local made from the file would be unused.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define IF_GET	_IO('I', 1)

static int if_value = 17;

static int if_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
#ifdef IF_DEBUG
	printk(KERN_DEBUG "adv_inode_ifdef: minor %d cmd %x\n", iminor(inode), cmd);
#endif
	if (cmd == IF_GET)
		return if_value;
	return -ENOTTY;
}

static struct file_operations if_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= if_ioctl,
};

static struct miscdevice if_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_inode_ifdef",
	.fops	= &if_fops,
};

static int __init if_init(void)
{
	return misc_register(&if_misc);
}
module_init(if_init);
MODULE_LICENSE("GPL");
