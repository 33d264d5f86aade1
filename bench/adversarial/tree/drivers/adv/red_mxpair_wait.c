/*
 * red_mxpair_wait: the waiting half of red_mxpair.ko.
 * Shape (mutex mode): a sleeping poll (while (!mxp_ready) ssleep(1);) on
 * a flag that only the OTHER file of the module sets, under what becomes
 * the one module mutex (other commands are passed to the other file).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/delay.h>
#include "red_mxpair.h"

extern struct miscdevice mxp_sig_misc;

static int mxp_wait_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd != MXP_WAIT)
		return mxp_signal(cmd);
	while (!mxp_ready)
		ssleep(1);
	return 1;
}

static struct file_operations mxp_wait_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= mxp_wait_ioctl,
};

static struct miscdevice mxp_wait_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mxpair_wait",
	.fops	= &mxp_wait_fops,
};

static int __init mxp_init(void)
{
	int err = misc_register(&mxp_sig_misc);

	return err ? err : misc_register(&mxp_wait_misc);
}
module_init(mxp_init);
MODULE_LICENSE("GPL");
