/*
 * "return arg;" and "return cmd;": an unsigned long and an unsigned int
 * the int handler returned truncated (a user pointer above 4 GiB whose
 * low half looks like an errno came back as that errno).  They go
 * through the int temporary; an int local is returned as it is.
 */
#include <linux/fs.h>

static int wp_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int err = -ENOTTY;

	if (cmd == WP_ECHO)
		return arg;
	if (cmd & WP_QUERY)
		return cmd;
	return err;
}

static struct file_operations wp_fops = {
	.ioctl		= wp_ioctl,
};
