/* Converted by a pushdown and left there: still takes the BKL, answers
 * unknown commands with -ENOIOCTLCMD and has no .compat_ioctl. */
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int bkl_state;

static long unlocked_bkl_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	long ret = 0;

	lock_kernel();
	switch (cmd) {
	case 1:
		bkl_state = arg;
		break;
	default:
		ret = -ENOIOCTLCMD;
	}
	unlock_kernel();
	return ret;
}

static struct file_operations unlocked_bkl_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= unlocked_bkl_ioctl,
};
