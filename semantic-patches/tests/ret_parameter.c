/*
 * A parameter is named "ret": a top-level "int ret" would redeclare it
 * and not compile.  The temporary gets a name the file does not use.
 */
int bz_beep();
#include <linux/fs.h>

static int bz_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long ret)
{
	if (cmd != BZ_BEEP)
		return -ENOTTY;
	return bz_beep(ret);
}

static struct file_operations bz_fops = {
	.ioctl		= bz_ioctl,
};
