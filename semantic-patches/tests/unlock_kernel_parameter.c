/*
 * The handler's argument is named unlock_kernel: auto picks the wrapper,
 * and the wrapper names its own parameters file, cmd and arg, since with
 * the handler's names its "unlock_kernel();" would call the parameter.
 */
#include <linux/fs.h>

static int ul_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long unlock_kernel)
{
	if (cmd != UL_SET)
		return -ENOTTY;
	ul_set(unlock_kernel);
	return 0;
}

static struct file_operations ul_fops = {
	.ioctl		= ul_ioctl,
};
