/*
 * Callers pass NULL as the inode through a local set only to NULL, in
 * its declaration or by a statement, plain, 0 or cast (the adversarial
 * measure's red_null_local): that is a NULL inode, so a handler that
 * never uses its inode converts, the calls drop the argument, and the
 * local, now unused, goes with it.  One still used after the call stays.
 */
#include <linux/fs.h>

static int vl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cmd == VL_RESET ? 0 : -ENOTTY;
}

static int vl_reset(struct file *file)
{
	struct inode *none = NULL;

	return vl_ioctl(none, file, VL_RESET, 0);
}

static int vl_flush(struct file *file)
{
	struct inode *nothing = 0;

	return vl_ioctl(nothing, file, VL_FLUSH, 0);
}

static int vl_sync(struct file *file)
{
	struct inode *ino;
	int err;

	ino = NULL;
	err = vl_ioctl(ino, file, VL_SYNC, 0);
	return err;
}

static int vl_probe(struct file *file)
{
	struct inode *i = (struct inode *)NULL;

	return vl_ioctl(i, file, VL_PROBE, 0);
}

static int vl_trace(struct file *file)
{
	struct inode *none = NULL;
	int err = vl_ioctl(none, file, VL_PROBE, 0);

	printk(KERN_DEBUG "vl: %p %d\n", none, err);
	return err;
}

static struct file_operations vl_fops = {
	.ioctl		= vl_ioctl,
};
