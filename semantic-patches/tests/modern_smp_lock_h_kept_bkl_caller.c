// options: -D mutex -D no_bkl
/*
 * Another function of the file still takes the BKL (its open): the
 * header stays, so the build names what is left to port instead of
 * failing on an undeclared lock_kernel().
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int dial_users;

static int dial_open(struct inode *inode, struct file *file)
{
	lock_kernel();
	dial_users++;
	unlock_kernel();
	return 0;
}

static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return dial_users ? 0 : -ENODEV;
}

static struct file_operations dial_fops = {
	.owner		= THIS_MODULE,
	.open		= dial_open,
	.ioctl		= dial_ioctl,
};
