/*
 * An explicit .ioctl = NULL says nothing the zero initializer does not:
 * it goes, and nothing else changes.
 */
#include <linux/fs.h>

static struct file_operations null_fops = {
	.owner		= THIS_MODULE,
	.read		= null_read,
	.ioctl		= NULL,
};
