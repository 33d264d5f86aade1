/*
 * TRACE_ABORT returns through TRACE_EXIT, an object-like macro of a
 * header that the driver's header includes with quotes from another
 * directory: headers are followed as the preprocessor follows them.
 */
#include <linux/fs.h>
#include "exit_nested_header.h"

static int zt_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (!zt_ready())
		TRACE_ABORT(-EIO);
	return zt_command(cmd, arg);
}

static struct file_operations zt_fops = {
	.ioctl		= zt_ioctl,
};
