// options: -D mutex -D no_bkl
/*
 * <linux/smp_lock.h> is the last include, where <linux/mutex.h> goes:
 * the new header takes its line.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int vane_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return iminor(inode) ? -ENOTTY : 0;
}

static struct file_operations vane_fops = {
	.ioctl		= vane_ioctl,
};
