// rule: unlocked_ioctl_takes_bkl.cocci
/* No report: the unlocked handler uses its own mutex, and the handler that
 * takes the BKL is a legacy .ioctl one (that is the conversion rule's job). */
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/smp_lock.h>

static DEFINE_MUTEX(lp_mutex);
static int lp_count;

static long lp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	mutex_lock(&lp_mutex);
	lp_count++;
	mutex_unlock(&lp_mutex);
	return 0;
}

static int lp_old_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	lock_kernel();
	lp_count = 0;
	unlock_kernel();
	return 0;
}

static const struct file_operations lp_fops = {
	.unlocked_ioctl	= lp_ioctl,
	.compat_ioctl	= lp_ioctl,
};

static const struct file_operations lp_old_fops = {
	.ioctl		= lp_old_ioctl,
};
