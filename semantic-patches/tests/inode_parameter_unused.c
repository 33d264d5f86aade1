/*
 * The handler ignores its inode parameter (named unused) and reads the
 * inode of its file in an inner block: nothing is derived.
 */
#include <linux/fs.h>

static int fd_ioctl(struct inode *unused, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == 1) {
		struct inode *inode = file->f_dentry->d_inode;

		return iminor(inode);
	}
	return -ENOTTY;
}

static struct file_operations fd_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= fd_ioctl,
};
