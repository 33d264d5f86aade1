// options: -D inode_f_dentry
/*
 * A caller passes NULL for the inode: the handler may test for that, and
 * after conversion it would get the file's inode instead.  The handler is
 * refused, so the call, the prototype and the fops all stay.
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
