// options: -D mutex -D no_bkl
/*
 * A target without the BKL (>= 2.6.39) has no <linux/smp_lock.h>: once
 * the handler takes the private mutex, nothing needs the header.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#define GAUGE_GET	_IOR('g', 1, int)

static int gauge_level;

static int gauge_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	if (cmd != GAUGE_GET)
		return -ENOTTY;
	return put_user(gauge_level, (int __user *)arg);
}

static struct file_operations gauge_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= gauge_ioctl,
};
