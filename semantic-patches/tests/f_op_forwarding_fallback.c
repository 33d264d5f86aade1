// rule: f_op_ioctl_forwarding.cocci
// options: -D legacy_ioctl
// variant multi_kernel: -D multi_kernel
// A target that still has .ioctl: a lower driver outside the run is still
// on it, so a forwarded call goes through a helper that tries
// ->unlocked_ioctl and falls back to ->ioctl under the BKL, passing the
// inode the call passed.  Spellings of the call: an argument of another
// call, a ternary assigned, (*cfops->ioctl)(...) through a const local.
// The helper's name is free in the file (forward_ioctl2 is a local of it)
// and in its quoted header (which declares forward_ioctl): the third.
// <linux/smp_lock.h> follows the last #include <...>.  Refused: a test
// through an expression with a call (testing both members would call it
// twice).
#include <linux/fs.h>
#include <linux/uaccess.h>
#include "f_op_forwarding_fallback.h"

static int counted(int ret)
{
	int forward_ioctl2 = ret;

	return forward_ioctl2;
}

static int arg_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return counted(lower->f_op->ioctl(file_inode(lower), lower, cmd, arg));
}

static int assigned_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int ret;

	ret = lower->f_op->ioctl ?
		lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg) : -ENOTTY;
	return ret;
}

static int const_fops_ioctl(struct inode *inode, struct file *file,
			    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	const struct file_operations *cfops = lower->f_op;

	if (cfops->ioctl != NULL)
		return (*cfops->ioctl)(lower->f_path.dentry->d_inode, lower, cmd, arg);
	return -ENOTTY;
}

static struct file *pick(struct file *file)
{
	return file->private_data;
}

static int called_test_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	if (!pick(file)->f_op->ioctl)
		return -ENOTTY;
	return pick(file)->f_op->ioctl(file_inode(pick(file)), pick(file), cmd, arg);
}
