// options: -D inode_f_dentry
/*
 * The inode is named only where a macro's #if branch names it
 * (FL_MINOR() is 0 without USE_INODE, FL_DBG() drops its arguments
 * without FL_DEBUG): the derived local, and the local a compat wrapper
 * keeps for the macro, are unused in the other build, an error with
 * -Werror.  Each is marked __attribute__((unused)), which every gcc of
 * the 2.6 kernels takes.
 */
#include <linux/fs.h>
int fl_reset();
void fl_trace();

#ifdef USE_INODE
#define FL_MINOR()	iminor(inode)
#else
#define FL_MINOR()	0
#endif

#ifdef FL_DEBUG
#define FL_DBG(fmt, args...)	fl_trace(fmt, ## args)
#else
#define FL_DBG(fmt, args...)	do { } while (0)
#endif

static int fl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (FL_MINOR() > 3)
		return -ENODEV;
	return fl_reset(cmd);
}

static int fl_dbg_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	FL_DBG("fl%u: %x\n", iminor(inode), cmd);
	return fl_reset(cmd);
}

static long fl_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;

	if (FL_MINOR() > 7)
		return -ENODEV;
	return fl_ioctl(inode, file, cmd, arg);
}

static struct file_operations fl_fops = {
	.ioctl		= fl_ioctl,
	.compat_ioctl	= fl_compat_ioctl,
};

static struct file_operations fl_dbg_fops = {
	.ioctl		= fl_dbg_ioctl,
};
