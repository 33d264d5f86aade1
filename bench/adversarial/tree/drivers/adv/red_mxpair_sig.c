/*
 * red_mxpair_sig: the signalling half of red_mxpair.ko: its command sets
 * the flag the other file's handler sleeps on; only this file writes it.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "red_mxpair.h"

int mxp_ready;

/* the signal itself, also passed on by the waiting node */
int mxp_signal(unsigned int cmd)
{
	if (cmd != MXP_READY)
		return -ENOTTY;
	mxp_ready = 1;
	return 0;
}

static int mxp_sig_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return mxp_signal(cmd);
}

static struct file_operations mxp_sig_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= mxp_sig_ioctl,
};

struct miscdevice mxp_sig_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mxpair_sig",
	.fops	= &mxp_sig_fops,
};
