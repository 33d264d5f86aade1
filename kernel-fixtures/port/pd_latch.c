// SPDX-License-Identifier: GPL-2.0
/*
 * pd_latch: a latch that an ioctl sets from a user buffer.
 *
 * Point: a port whose ioctl path itself does not build on a current
 * kernel: the handler checks the buffer with verify_area(), gone since
 * 2.6.28 and not in the API drift table.  The new build's error is in the
 * converted handler, so `convert --kdir` must put the conversion back and
 * say why, as for any error the conversion cannot be cleared of.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#define PD_LATCH_SET	_IOW('l', 1, int)

static int pd_latch_value;

static int pd_latch_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	int __user *argp = (int __user *)arg;

	if (cmd != PD_LATCH_SET)
		return -ENOTTY;
	if (verify_area(VERIFY_READ, argp, sizeof(int)))
		return -EFAULT;
	return __get_user(pd_latch_value, argp);
}

static const struct file_operations pd_latch_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= pd_latch_ioctl,
};

static struct miscdevice pd_latch_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "pd_latch",
	.fops	= &pd_latch_fops,
};

static int __init pd_latch_init(void)
{
	return misc_register(&pd_latch_dev);
}

static void __exit pd_latch_exit(void)
{
	misc_deregister(&pd_latch_dev);
}

module_init(pd_latch_init);
module_exit(pd_latch_exit);
MODULE_LICENSE("GPL");
