/*
 * A forward declaration and a compat wrapper that calls the legacy handler
 * under lock_kernel(), as 2.6.11-era drivers did before .compat_ioctl got
 * its own handler: both follow the new signature.
 */
int vt_get_state();
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/compat.h>

static int vt_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg);

static long vt_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	int ret;

	lock_kernel();
	ret = vt_ioctl(file->f_dentry->d_inode, file, cmd,
		       (unsigned long)compat_ptr(arg));
	unlock_kernel();
	return ret;
}

static struct file_operations vt_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= vt_ioctl,
	.compat_ioctl	= vt_compat_ioctl,
};

static int vt_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != VT_GETSTATE)
		return -ENOIOCTLCMD;
	return vt_get_state(file, (void __user *)arg);
}
