/*
 * A driver file that a board file #includes, with an include guard of its
 * own: spatch reads the guard as no #if, so the new header goes after the
 * last #include inside it.
 */
#ifndef _SIREN_IOCTL_C
#define _SIREN_IOCTL_C

int siren_sound();
#include <linux/fs.h>
#include <linux/module.h>

static int siren_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return siren_sound(cmd);
}

static struct file_operations siren_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= siren_ioctl,
};

#endif /* _SIREN_IOCTL_C */
