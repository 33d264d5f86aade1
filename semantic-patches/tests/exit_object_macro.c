/*
 * An object-like macro returns: NEED_ADMIN is not a call, yet it leaves
 * the handler.  A pushed-down unlock would miss that exit, so auto picks
 * the wrapper, whose unlock runs however the body returns.
 */
#include <linux/fs.h>

#define NEED_ADMIN	if (!capable(CAP_SYS_ADMIN)) return -EPERM

#define WD_SET_TIMEOUT	_IOW('W', 1, int)

static int wd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != WD_SET_TIMEOUT)
		return -ENOTTY;
	NEED_ADMIN;
	wd_set_timeout(arg);
	return 0;
}

static struct file_operations wd_fops = {
	.ioctl		= wd_ioctl,
};
