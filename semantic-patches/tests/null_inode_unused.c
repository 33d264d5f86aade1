/*
 * Callers pass NULL (or 0, or a cast NULL) as the inode of a handler that
 * never uses its inode: nothing can rely on it, so the handler converts
 * and the calls drop the argument, as upstream did.
 */
#include <linux/fs.h>

static int vt_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cmd == VT_RESET ? 0 : -ENOTTY;
}

static int vt_reset(struct file *file)
{
	return vt_ioctl(NULL, file, VT_RESET, 0);
}

static int vt_flush(struct file *file)
{
	return vt_ioctl(0, file, VT_FLUSH, 0);
}

static int vt_sync(struct file *file)
{
	return vt_ioctl((struct inode *)NULL, file, VT_SYNC, 0);
}

static struct file_operations vt_fops = {
	.ioctl		= vt_ioctl,
};
