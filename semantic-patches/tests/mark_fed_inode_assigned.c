// options: -D inode_f_dentry
/*
 * A compat wrapper declares its inode local bare and sets it by a
 * statement, then passes it to the converted handler; a macro of the file
 * whose #if branch may name the inode keeps the local and its statement
 * when the call loses the argument.  In the build where the macro names
 * no inode the local is set but not used (-Wunused-but-set-variable, in
 * -Wall): the declaration is marked __attribute__((unused)).  The set
 * statement is the same whether the file is file or filp, through
 * f_dentry or f_path.dentry, with the local alone or among others.
 */
#include <linux/fs.h>
int fl_reset();

#ifdef USE_INODE
#define FL_MINOR()	iminor(inode)
#else
#define FL_MINOR()	0
#endif

#if FL_LEVEL > 1
#define FL_UNIT		MINOR(inode->i_rdev)
#else
#define FL_UNIT		1
#endif

static int fl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return fl_reset(cmd);
}

static long fl_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *inode;

	inode = file->f_dentry->d_inode;
	if (FL_MINOR() > 7)
		return -ENODEV;
	return fl_ioctl(inode, file, cmd, arg);
}

static long fl_unit_compat_ioctl(struct file *filp, unsigned int cmd,
				 unsigned long arg)
{
	long ret;
	struct inode *inode;

	inode = filp->f_path.dentry->d_inode;
	if (cmd == 2 && FL_UNIT > 3)
		return -ENODEV;
	ret = fl_ioctl(inode, filp, cmd, arg);
	return ret;
}

static struct file_operations fl_fops = {
	.ioctl		= fl_ioctl,
	.compat_ioctl	= fl_compat_ioctl,
};

static struct file_operations fl_unit_fops = {
	.ioctl		= fl_ioctl,
	.compat_ioctl	= fl_unit_compat_ioctl,
};
