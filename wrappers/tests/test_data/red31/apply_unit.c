/*
 * gauge: the unit is computed by a macro handed to another macro by name
 * (APPLY(GAUGE_UNIT)): the inode is named only inside GAUGE_UNIT.
 */
#include <linux/fs.h>
int gauge_set(int unit, unsigned long arg);

#define GAUGE_UNIT()	iminor(inode)
#define APPLY(m)	(m() & 3)

static int gauge_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return gauge_set(APPLY(GAUGE_UNIT), arg);
}

static struct file_operations gauge_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= gauge_ioctl,
};
