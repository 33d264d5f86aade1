// rule: f_op_ioctl_forwarding.cocci
// variant legacy: -D legacy_ioctl
// The member as a branch of a conditional that chooses the function called:
// (T ? T : none)(...) (bench/adversarial red_fwd_ternary_fn, once recorded
// twice as "tests ->ioctl").  The call cannot be followed to
// ->unlocked_ioctl: refused, once per line, the test in the condition
// with it.  Spellings: the member in either branch, through a local fops.
#include <linux/fs.h>

static int none(struct inode *inode, struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOSYS;
}

static int picked(struct inode *inode, struct file *file,
		  unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return (lower->f_op->ioctl ? lower->f_op->ioctl : none)
		(lower->f_dentry->d_inode, lower, cmd, arg);
}

static int reversed(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	const struct file_operations *fops = lower->f_op;

	return (!fops->ioctl ? none : fops->ioctl)(file_inode(lower), lower, cmd, arg);
}
