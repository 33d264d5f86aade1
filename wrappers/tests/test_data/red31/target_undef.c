/*
 * pluvio: its own header pluvio_compat.h #undefs HAVE_UNLOCKED_IOCTL, so
 * the legacy half of the fops compiles on every kernel.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include "pluvio_compat.h"

static long pluvio_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

#ifndef HAVE_UNLOCKED_IOCTL
static int pluvio_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return pluvio_unlocked(file, cmd, arg);
}
#endif

static const struct file_operations pluvio_fops = {
	.owner		= THIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
	.unlocked_ioctl	= pluvio_unlocked,
#else
	.ioctl		= pluvio_ioctl,
#endif
};
