// options: -D inode_f_dentry
// variant pushdown: -D pushdown
// variant mutex: -D mutex
/*
 * An inode named only in an #if branch spatch does not parse: each branch
 * opens the same block, so spatch reads the first and passes over the
 * #else, which a kbuild -D (ccflags-y += -DUBR_BY_INODE) compiles.  A use
 * there, a declaration there: under the BKL the handler keeps its
 * signature behind the wrapper, which passes the inode; pushdown and the
 * private mutex refuse it.  A member named inode there is no use of the
 * parameter: that handler converts as usual.
 */
#include <linux/module.h>
#include <linux/fs.h>

struct ubr_dev {
	struct inode *inode;
	int busy;
};

int ubr_busy(struct file *file);

static int ubr_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
#ifndef UBR_BY_INODE
	if (ubr_busy(file)) {
#else
	if (MINOR(inode->i_rdev) > 3) {
#endif
		return -EBUSY;
	}
	return 0;
}

static int udecl_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
#if !defined(UBR_BY_INODE)
	if (ubr_busy(file)) {
#else
	if (ubr_busy(file)) {
		struct inode *ip = inode;

		if (MINOR(ip->i_rdev) > 3)
			return -ENODEV;
#endif
		return -EBUSY;
	}
	return 0;
}

static int umember_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
#if UBR_LEVEL < 2
	if (ubr_busy(file)) {
#else
	if (((struct ubr_dev *)file->private_data)->inode == NULL) {
#endif
		return -EBUSY;
	}
	return 0;
}

static struct file_operations ubr_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= ubr_ioctl,
};

static struct file_operations udecl_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= udecl_ioctl,
};

static struct file_operations umember_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= umember_ioctl,
};
