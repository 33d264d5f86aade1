/*
 * spatch drops a function whose control flow it cannot build: a
 * do { } while (0) whose body ends in a return or a goto never reaches
 * its condition.  The handler is there, and the report says so, instead
 * of sending the user to look for it in another file.  Nothing changes.
 */
#include <linux/fs.h>

static int dw_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int err = 0;

	do {
		if (cmd == DW_RESET)
			break;
		return -ENOTTY;
	} while (0);
	dw_reset();
	return err;
}

static int dg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	do {
		if (dg_busy())
			break;
		goto out;
	} while (0);
	return -EBUSY;
out:
	return 0;
}

static struct file_operations dw_fops = {
	.ioctl		= dw_ioctl,
};

static struct file_operations dg_fops = {
	.ioctl		= dg_ioctl,
};
