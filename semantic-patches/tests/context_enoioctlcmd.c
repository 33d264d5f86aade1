/*
 * Context mode marks each -ENOIOCTLCMD of a legacy .ioctl handler, whose
 * errno userspace sees change with the conversion (515 before, EINVAL
 * after): returned from a switch's default, or set first and returned
 * later.  One in a helper that is no handler is not marked; the
 * handlers' entries are, as always.
 */
#include <linux/fs.h>
int cm_reset();
int cm_status();

static int cm_helper(unsigned int cmd)
{
	return cmd == 1 ? 0 : -ENOIOCTLCMD;
}

static int cm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return cm_reset();
	default:
		return -ENOIOCTLCMD;
	}
}

static int cm_aux_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	int err = -ENOIOCTLCMD;

	if (cmd == 2)
		err = cm_status(arg);
	return err;
}

static struct file_operations cm_fops = {
	.ioctl		= cm_ioctl,
};

static struct file_operations cm_aux_fops = {
	.ioctl		= cm_aux_ioctl,
};
