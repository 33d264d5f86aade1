// Expected: records_unmatched_definitions.report.res (what report mode prints).
/*
 * Handlers the rule does not rewrite are named for what they are: an
 * old-style (K&R) definition, in two layouts, is not "not the .ioctl
 * signature"; a handler that a macro of the file defines, named in any
 * argument, is not "not defined in this file".
 */
#include <linux/fs.h>

static int ka_ioctl(inode, file, cmd, arg)
	struct inode *inode;
	struct file *file;
	unsigned int cmd;
	unsigned long arg;
{
	return 0;
}

static int
kb_ioctl (inode, file, cmd, arg)
struct inode *inode; struct file *file; unsigned int cmd; unsigned long arg;
{
	return 1;
}

#define DEFINE_IOCTL(name)						\
static int name(struct inode *inode, struct file *file,		\
		unsigned int cmd, unsigned long arg)			\
{									\
	return 0;							\
}

#define DEFINE_UNIT_IOCTL(unit, fn)					\
static int fn(struct inode *inode, struct file *file,			\
	      unsigned int cmd, unsigned long arg)			\
{									\
	return unit;							\
}

DEFINE_IOCTL(ma_ioctl)
DEFINE_UNIT_IOCTL(2, mb_ioctl);

static struct file_operations ka_fops = { .ioctl = ka_ioctl, };
static struct file_operations kb_fops = { .ioctl = kb_ioctl, };
static struct file_operations ma_fops = { .ioctl = ma_ioctl, };
static struct file_operations mb_fops = { .ioctl = mb_ioctl, };
