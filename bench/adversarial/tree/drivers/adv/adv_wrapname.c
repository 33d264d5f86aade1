/*
 * adv_wrapname: a driver whose header already uses the names a wrapper
 * would take.
 * Shape: wn_unlocked_ioctl and its likely variants declared in an included
 * header (the free-name search must read it).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "adv_wrapname.h"

int wn_unlocked_ioctl;
int wn_ioctl_unlocked;
int wn_locked_ioctl;

static int wn_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	wn_locked_ioctl++;
	if (cmd == WN_PING)
		return wn_locked_ioctl;
	return -ENOTTY;
}

static struct file_operations wn_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= wn_ioctl,
};

static struct miscdevice wn_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_wrapname",
	.fops	= &wn_fops,
};

static int __init wn_init(void)
{
	return misc_register(&wn_misc);
}
module_init(wn_init);
MODULE_LICENSE("GPL");
