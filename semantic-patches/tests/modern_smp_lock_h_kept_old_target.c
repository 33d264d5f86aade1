// options: -D mutex
/*
 * Without -D no_bkl (a target before 2.6.39, where the header exists)
 * the include stays even though nothing calls the BKL any more.
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
