/*
 * A static local is shared by every caller: returned after the unlock,
 * another ioctl could change it between the unlock and the read.  It is
 * read under the lock, into the temporary; an automatic local is not.
 */
#include <linux/fs.h>

static int sl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	static int opens;
	int err = 0;

	if (cmd == SL_OPENS)
		return opens;
	if (cmd == SL_BUMP)
		opens++;
	else
		err = -ENOTTY;
	return err;
}

static struct file_operations sl_fops = {
	.ioctl		= sl_ioctl,
};
