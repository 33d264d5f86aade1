/*
 * Comments between the parameters: the inode parameter goes with its
 * comment, the others keep theirs.
 */
#include <linux/fs.h>

static int cp_ioctl(struct inode *inode /* unused */, struct file *file,
		    /* command */ unsigned int cmd,
		    unsigned long arg /* user pointer */)
{
	return cmd == 1 ? 81 : -EINVAL;
}

static struct file_operations cp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cp_ioctl,
};
