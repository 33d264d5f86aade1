/*
 * adv_multi_glue: a driver maintained out of tree for several kernels.
 * Shape: its own #ifdef HAVE_UNLOCKED_IOCTL glue: an unlocked entry that
 * takes the BKL and calls the legacy handler, .ioctl under #else.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <asm/uaccess.h>

#define MG_SET	_IOW('G', 1, int)
#define MG_GET	_IOR('G', 2, int)

static int mg_value;

static int mg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MG_SET:
		return get_user(mg_value, (int __user *)arg);
	case MG_GET:
		return put_user(mg_value, (int __user *)arg);
	}
	return -ENOTTY;
}

#ifdef HAVE_UNLOCKED_IOCTL
static long mg_unlocked_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = mg_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
#endif

static struct file_operations mg_fops = {
	.owner		= THIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
	.unlocked_ioctl	= mg_unlocked_ioctl,
#else
	.ioctl		= mg_ioctl,
#endif
};

static struct miscdevice mg_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_multi_glue",
	.fops	= &mg_fops,
};

static int __init mg_init(void)
{
	return misc_register(&mg_misc);
}
module_init(mg_init);
MODULE_LICENSE("GPL");
