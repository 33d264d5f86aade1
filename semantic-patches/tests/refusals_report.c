// options: -D pushdown -D mutex
/*
 * Report mode says why: -D pushdown splits an early call so that it
 * runs under the lock, and -D mutex cannot stand in for a handler that
 * takes the BKL itself.
 */
struct scanner *scanner_get();
int scanner_start();
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int scan_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct scanner *scn = scanner_get(iminor(inode));

	return scanner_start(scn);
}

static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	unlock_kernel();
	msleep(100);
	lock_kernel();
	return 0;
}

static struct file_operations scan_fops = {
	.ioctl		= scan_ioctl,
};

static struct file_operations tape_fops = {
	.ioctl		= tape_ioctl,
};
