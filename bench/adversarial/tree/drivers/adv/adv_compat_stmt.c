/*
 * adv_compat_stmt: a driver with its own compat entry (2.6.11 and later),
 * which calls the legacy handler under the BKL.
 * Shape: the compat function's inode local is set by a statement
 * (inode = file->f_dentry->d_inode;), not an initializer.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <asm/uaccess.h>

#define CS_GET	_IOR('c', 0x30, int)

static int cs_value = 5;

static int cs_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != CS_GET)
		return -ENOTTY;
	return put_user(cs_value + (int)iminor(inode), (int __user *)arg);
}

#ifdef HAVE_COMPAT_IOCTL
static long cs_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *inode;
	long ret;

	inode = file->f_dentry->d_inode;
	lock_kernel();
	ret = cs_ioctl(inode, file, cmd, (unsigned long)compat_ptr(arg));
	unlock_kernel();
	return ret;
}
#endif

static struct file_operations cs_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cs_ioctl,
#ifdef HAVE_COMPAT_IOCTL
	.compat_ioctl	= cs_compat_ioctl,
#endif
};

static struct miscdevice cs_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_compat_stmt",
	.fops	= &cs_fops,
};

static int __init cs_init(void)
{
	return misc_register(&cs_misc);
}
module_init(cs_init);
MODULE_LICENSE("GPL");
