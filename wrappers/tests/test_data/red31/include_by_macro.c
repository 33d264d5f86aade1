/*
 * anemo: takes back HAVE_UNLOCKED_IOCTL where ANEMO_COMPAT says so; the
 * Makefile has -UANEMO_COMPAT, but the header named by ANEMO_HDR, included
 * through the macro, defines it.
 */
#include <linux/fs.h>
#include <linux/module.h>
#define ANEMO_HDR "anemo_compat.h"
#include ANEMO_HDR
#ifdef ANEMO_COMPAT
#undef HAVE_UNLOCKED_IOCTL
#endif

static long anemo_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

#ifndef HAVE_UNLOCKED_IOCTL
static int anemo_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return anemo_unlocked(file, cmd, arg);
}
#endif

static const struct file_operations anemo_fops = {
	.owner		= THIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
	.unlocked_ioctl	= anemo_unlocked,
#else
	.ioctl		= anemo_ioctl,
#endif
};
