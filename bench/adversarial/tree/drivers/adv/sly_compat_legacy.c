/*
 * sly_compat_legacy: a tuner whose 32-bit entry (2.6.11 and later) passes
 * every command on to the legacy handler under the BKL.
 * Shape: the compat function comes first, calls the legacy handler
 * through a forward prototype that still names the inode, and passes the
 * inode as an expression (f->f_dentry->d_inode), not a local.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <linux/compat.h>
#include <asm/uaccess.h>

#define CL_FREQ_SET	_IOW('l', 1, int)
#define CL_FREQ_GET	_IOR('l', 2, int)

static int cl_freq[2];

static int cl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg);

#ifdef HAVE_COMPAT_IOCTL
static long cl_compat_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	int ret;

	lock_kernel();
	ret = cl_ioctl(f->f_dentry->d_inode, f, cmd, (unsigned long)compat_ptr(arg));
	unlock_kernel();
	return ret;
}
#endif

static int cl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int *freq = &cl_freq[iminor(inode) & 1];

	switch (cmd) {
	case CL_FREQ_SET:
		if (get_user(*freq, (int __user *)arg))
			return -EFAULT;
		return 0;
	case CL_FREQ_GET:
		return put_user(*freq, (int __user *)arg);
	}
	return -ENOTTY;
}

static struct file_operations cl_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cl_ioctl,
#ifdef HAVE_COMPAT_IOCTL
	.compat_ioctl	= cl_compat_ioctl,
#endif
};

static struct miscdevice cl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_compat_legacy",
	.fops	= &cl_fops,
};

static int __init cl_init(void)
{
	return misc_register(&cl_misc);
}
module_init(cl_init);
MODULE_LICENSE("GPL");
