// SPDX-License-Identifier: GPL-2.0
/*
 * fx_ifdef: a bit mask, from a driver kept building on kernels before and
 * after 2.6.11.  Where HAVE_UNLOCKED_IOCTL exists it installs an
 * unlocked_ioctl that takes the BKL and calls the legacy handler; elsewhere
 * the legacy handler is the .ioctl entry.
 *
 * Point: an "#ifdef HAVE_UNLOCKED_IOCTL" driver, the shape the multi-kernel
 * conversion produces.  The handler must run under the BKL in both builds.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#include <fixture/fx_ifdef.h>
#include "fixture_observer.h"

static u32 fx_ifdef_bits;

static int fx_ifdef_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	u32 __user *argp = (u32 __user *)arg;
	u32 bits;

	fixture_observe(inode);
	if (cmd == FX_IFDEF_GET_BITS)
		return put_user(fx_ifdef_bits, argp);
	if (cmd != FX_IFDEF_SET_BITS && cmd != FX_IFDEF_CLEAR_BITS)
		return -ENOTTY;

	if (get_user(bits, argp))
		return -EFAULT;
	if (bits & ~FX_IFDEF_VALID_BITS)
		return -EINVAL;
	if (cmd == FX_IFDEF_SET_BITS)
		fx_ifdef_bits |= bits;
	else
		fx_ifdef_bits &= ~bits;
	return 0;
}

#ifdef HAVE_UNLOCKED_IOCTL
static long fx_ifdef_unlocked_ioctl(struct file *file, unsigned int cmd,
				    unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;
	long ret;

	lock_kernel();
	ret = fx_ifdef_ioctl(inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
#endif

static const struct file_operations fx_ifdef_fops = {
	.owner		= THIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
	.unlocked_ioctl	= fx_ifdef_unlocked_ioctl,
#else
	.ioctl		= fx_ifdef_ioctl,
#endif
};

static struct miscdevice fx_ifdef_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_ifdef",
	.fops	= &fx_ifdef_fops,
};
module_misc_device(fx_ifdef_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl behind #ifdef HAVE_UNLOCKED_IOCTL");
MODULE_LICENSE("GPL");
