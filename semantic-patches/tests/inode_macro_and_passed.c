/*
 * The handler names its inode only through a macro of the file, and
 * passes it to another handler being converted.  That argument goes, but
 * the derived inode stays: the macro still uses it.
 */
int pm_query();
#include <linux/fs.h>

#define PM_UNIT		(iminor(inode) & 3)

static int pm_sub_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return pm_query(PM_UNIT, cmd);
}

static int pm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd & PM_SUB)
		return pm_sub_ioctl(inode, file, cmd, arg);
	pm_units[PM_UNIT] = arg;
	return 0;
}

static struct file_operations pm_sub_fops = {
	.ioctl		= pm_sub_ioctl,
};

static struct file_operations pm_fops = {
	.ioctl		= pm_ioctl,
};
