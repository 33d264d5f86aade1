/*
 * A CRLF file whose returning macro is continued with a backslash:
 * a backslash before CR LF continues the line as one before LF does.
 */
#include <linux/fs.h>

#define CHECK_UNIT(u)			\
	do {				\
		if ((u) >= NR_UNITS)	\
			return -ENODEV;	\
	} while (0)

static int tp_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	CHECK_UNIT(iminor(inode));
	return tp_command(iminor(inode), cmd, arg);
}

static struct file_operations tp_fops = {
	.ioctl		= tp_ioctl,
};
