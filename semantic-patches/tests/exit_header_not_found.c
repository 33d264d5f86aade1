/*
 * The driver's header is not next to it (the build finds it with -I), so
 * the rule cannot read its macros: CHECK_DEV, a statement it does not
 * know, may be one that returns.  Auto picks the wrapper and says why.
 */
#include <linux/fs.h>
#include "exit_missing_header.h"

static int ax_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct ax_dev *dev = file->private_data;

	ax_debug("ioctl %u\n", cmd);
	CHECK_DEV(dev);
	return ax_command(dev, cmd, arg);
}

static struct file_operations ax_fops = {
	.ioctl		= ax_ioctl,
};
