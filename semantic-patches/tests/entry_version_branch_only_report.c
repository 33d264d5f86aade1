// mode: report
/*
 * entry_version_branch_only in report mode: the entry converts.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int old_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations old_fops = {
	.owner		= THIS_MODULE,
#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,0)
	ioctl:		old_ioctl,
#endif
};
