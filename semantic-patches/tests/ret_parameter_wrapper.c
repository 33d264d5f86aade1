// options: -D wrapper
/*
 * A parameter is named "ret": a wrapper with the handler's parameter
 * names would declare its "int ret" over it.  The wrapper takes
 * file, cmd and arg instead.
 */
#include <linux/fs.h>

static int bz_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long ret)
{
	if (cmd != BZ_BEEP)
		return -ENOTTY;
	return bz_beep(ret);
}

static struct file_operations bz_fops = {
	.ioctl		= bz_ioctl,
};
