// options: -D inode_f_dentry
/*
 * A compat wrapper passes its inode local to the converted handler; a
 * macro of the file names an inode, but only another function uses it,
 * on a variable of its own.  C's scope: no macro used outside the wrapper
 * can reach the wrapper's local, so the call losing its argument leaves
 * the local unused and it goes, as it does in a file without the macro
 * (megaraid_mm.c of 2.6.9 kept a dead local marked unused).  The macro
 * function-like or object-like, the local set where it is declared or by
 * a statement.
 */
#include <linux/fs.h>
int mm_control();

#define MM_MINOR()	iminor(inode)
#define MM_UNIT		MINOR(inode->i_rdev)

static int mm_open(struct inode *inode, struct file *filep)
{
	return MM_MINOR() > 3 ? -ENODEV : 0;
}

static int mm_release(struct inode *inode, struct file *filep)
{
	return MM_UNIT == 7;
}

static int mm_ioctl(struct inode *inode, struct file *filep,
		    unsigned int cmd, unsigned long arg)
{
	return mm_control(cmd, arg);
}

static long mm_compat_ioctl(struct file *filep, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *inode = filep->f_dentry->d_inode;

	return mm_ioctl(inode, filep, cmd, arg);
}

static long mm_unit_compat_ioctl(struct file *file, unsigned int cmd,
				 unsigned long arg)
{
	struct inode *inode;

	inode = file->f_dentry->d_inode;
	return mm_ioctl(inode, file, cmd, arg);
}

static struct file_operations mm_fops = {
	.open		= mm_open,
	.release	= mm_release,
	.ioctl		= mm_ioctl,
	.compat_ioctl	= mm_compat_ioctl,
};

static struct file_operations mm_unit_fops = {
	.ioctl		= mm_ioctl,
	.compat_ioctl	= mm_unit_compat_ioctl,
};
