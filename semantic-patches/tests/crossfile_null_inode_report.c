// mode: report
// options: -D inode_f_dentry
/*
 * crossfile_null_inode in report mode: the refusal names the call that
 * passes NULL for the inode.
 */
#include <linux/fs.h>

static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg);

static int tape_rewind(struct file *file)
{
	return tape_ioctl(NULL, file, TAPE_REWIND, 0);
}

static struct file_operations tape_fops = {
	.ioctl		= tape_ioctl,
};

static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (inode && cmd == TAPE_UNIT)
		return iminor(inode);
	return cmd == TAPE_REWIND ? 0 : -ENOTTY;
}
