// options: -D inode_f_dentry
/*
 * MINOR(inode->i_rdev), the spelling older than iminor(); the target is
 * 2.6.11-2.6.19, where the inode is filp->f_dentry->d_inode.
 */
#include <linux/fs.h>
#include <linux/major.h>

#define TPQIC_STATUS	_IOR('m', 7, int)

static int qic_unit_status[4];

static int qic_ioctl(struct inode *inode, struct file *filp,
		     unsigned int cmd, unsigned long arg)
{
	int unit = MINOR(inode->i_rdev) & 3;

	if (cmd != TPQIC_STATUS)
		return -ENOTTY;
	return put_user(qic_unit_status[unit], (int __user *)arg);
}

static struct file_operations qic_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= qic_ioctl,
};
