// options: -D keep=mon_ioctl -D inode_f_dentry
/*
 * -D keep= names a handler that convert found a file for that cannot
 * follow (a caller elsewhere passes another inode): the handler, its
 * prototype, its caller and its fops stay legacy, though the rule alone
 * would convert them all.
 */
#include <linux/fs.h>

static int mon_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg);

static long mon_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;

	return mon_ioctl(inode, file, cmd, arg);
}

static struct file_operations mon_fops = {
	.ioctl		= mon_ioctl,
	.compat_ioctl	= mon_compat_ioctl,
};

static int mon_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return cmd == MON_RESET ? 0 : -ENOTTY;
}
