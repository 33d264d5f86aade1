/*
 * The file's only includes are quoted (an umbrella header of the driver,
 * then its register map): the lock's header goes after the last of them,
 * or lock_kernel() would be undeclared.
 */
#include "include_after_quoted_umbrella.h"
#include "include_after_quoted_umbrella_regs.h"

static int um_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != UM_RESET)
		return -ENOTTY;
	return 0;
}

static struct file_operations um_fops = {
	.ioctl		= um_ioctl,
};
