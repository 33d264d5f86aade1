/*
 * sly_inode_macro2: four counters, one per unit, chosen by the minor.
 * Shape: the handler's body never spells `inode`: an argument-less macro
 * of the file (CUR_CTR) names it, through a macro of a kbuild-path header
 * (SLY_UNIT_OF in inc/slylocal.h) that calls iminor().  A conversion that
 * drops the inode parameter as unused leaves CUR_CTR naming nothing.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include "slylocal.h"

#define IM_BUMP		_IO('m', 0x41)
#define IM_PEEK		_IOR('m', 0x42, int)

static int im_ctr[4];

/* the counter of the unit this call was made on */
#define CUR_CTR		(im_ctr[SLY_UNIT_OF(inode)])

static int im_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case IM_BUMP:
		return ++CUR_CTR;
	case IM_PEEK:
		if (arg < 4096)
			return -EFAULT;
		return put_user(CUR_CTR, (int __user *)arg);
	}
	return -ENOTTY;
}

static struct file_operations im_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= im_ioctl,
};

static struct miscdevice im_misc = {
	.minor	= 5,
	.name	= "sly_inode_macro2",
	.fops	= &im_fops,
};

static int __init im_init(void)
{
	return misc_register(&im_misc);
}
module_init(im_init);
MODULE_LICENSE("GPL");
