// rule: unlocked_ioctl_takes_bkl.cocci
/* The state right after a pushdown conversion: the BKL is still taken. */
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

static int nvram_size = 114;

static long nvram_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int size;

	lock_kernel();
	size = nvram_size;
	unlock_kernel();
	if (copy_to_user((void __user *)arg, &size, sizeof(size)))
		return -EFAULT;
	return 0;
}

static const struct file_operations nvram_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= nvram_ioctl,
	.compat_ioctl	= nvram_ioctl,
};
