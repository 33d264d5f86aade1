// options: -D mutex
/*
 * -D mutex: handlers joined by direct calls are converted together or not
 * at all.  A caller that is not a handler of this file (a compat function
 * under lock_kernel(), a helper) would not hold the private mutex, and a
 * handler of the group that is refused for its own reason keeps the BKL:
 * the whole group stays, each with the reason.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int cg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != CG_RESET)
		return -ENOTTY;
	cg_reset();
	return 0;
}

static long cg_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = cg_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}

static int cg_ctl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return cg_ioctl(inode, file, cmd, arg);
}

static int wt_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != WT_WAIT)
		return -ENOTTY;
	while (!wt_ready)
		msleep(10);
	return 0;
}

static int wt_ctl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd == WT_WAIT)
		return wt_ioctl(inode, file, cmd, arg);
	wt_ready = 1;
	return 0;
}

static int hl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return hl_helper(inode, file, cmd, arg);
}

static int hl_helper(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return hl_ioctl(inode, file, cmd + 1, arg);
}

static struct file_operations cg_fops = {
	.ioctl		= cg_ioctl,
	.compat_ioctl	= cg_compat_ioctl,
};

static struct file_operations cg_ctl_fops = {
	.ioctl		= cg_ctl_ioctl,
};

static struct file_operations wt_fops = {
	.ioctl		= wt_ioctl,
};

static struct file_operations wt_ctl_fops = {
	.ioctl		= wt_ctl_ioctl,
};

static struct file_operations hl_fops = {
	.ioctl		= hl_ioctl,
};
