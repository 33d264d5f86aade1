/*
 * A driver that already picks its entry point with HAVE_UNLOCKED_IOCTL
 * is left alone: its .ioctl only builds on kernels before 2.6.11.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int pp_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return pp_do_ioctl(iminor(inode), cmd, arg);
}

#ifdef HAVE_UNLOCKED_IOCTL
static long pp_unlocked_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = pp_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
#endif

static struct file_operations pp_fops = {
	.owner		= THIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
	.unlocked_ioctl	= pp_unlocked_ioctl,
#else
	.ioctl		= pp_ioctl,
#endif
};
