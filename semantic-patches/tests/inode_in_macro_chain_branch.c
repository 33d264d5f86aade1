// options: -D inode_f_dentry
/*
 * The inode is named through a chain of macros whose last link depends on
 * an #if (TUNER_UNIT() names TUNER_MINOR(), iminor(inode) only with
 * TUNER_PER_MINOR), through a macro of a quoted header (tuner_regs.h's
 * TUNER_BASE names TUNER_PORT() of this file, which names inode), and
 * through a paste that may spell it (TUNER_NODE(i) pastes i and node):
 * the derived local, and the local the compat wrapper keeps for the
 * macro, are marked unused, since no use is proven in every build.
 */
#include <linux/fs.h>
#include "tuner_regs.h"
int tuner_set();

#ifdef TUNER_PER_MINOR
#define TUNER_MINOR()	iminor(inode)
#else
#define TUNER_MINOR()	0
#endif
#define TUNER_UNIT()	TUNER_MINOR()
#define TUNER_PORT()	(0x300 + iminor(inode))
#define TUNER_NODE(p)	p ## node
#define TUNER_SELF()	TUNER_NODE(i)

static int tuner_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return tuner_set(TUNER_UNIT(), arg);
}

static long tuner_compat_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;

	if (TUNER_UNIT() > 3)
		return -ENODEV;
	return tuner_ioctl(inode, file, cmd, arg);
}

static int tuner_base_ioctl(struct inode *inode, struct file *file,
			    unsigned int cmd, unsigned long arg)
{
	return tuner_set(TUNER_BASE, arg);
}

static int tuner_self_ioctl(struct inode *inode, struct file *file,
			    unsigned int cmd, unsigned long arg)
{
	return tuner_set(iminor(TUNER_SELF()), arg);
}

static struct file_operations tuner_fops = {
	.ioctl		= tuner_ioctl,
	.compat_ioctl	= tuner_compat_ioctl,
};

static struct file_operations tuner_base_fops = {
	.ioctl		= tuner_base_ioctl,
};

static struct file_operations tuner_self_fops = {
	.ioctl		= tuner_self_ioctl,
};
