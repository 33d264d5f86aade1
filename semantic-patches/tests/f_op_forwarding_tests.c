// rule: f_op_ioctl_forwarding.cocci
// variant multi_kernel: -D multi_kernel
// variant legacy: -D legacy_ioctl
// variant legacy_multi: -D legacy_ioctl -D multi_kernel
// A stacking driver tests the member beside its forwarding call: the test
// follows the call to ->unlocked_ioctl (left on ->ioctl it would say "no
// ioctl" for every converted lower driver).  Spellings: !T in an ||, T in
// an &&, T != NULL, T == NULL, T ? CALL : -ENOTTY, through a local fops
// (const and not), nested ifs, an else if, a call deep in a block.
// Multi-kernel output writes twice the smallest statement that holds a
// call or test (or the one that holds two of them).  Refused: a test in a
// function with no call; in multi-kernel mode, a call in an initializer.
// Left alone: the legacy half of a driver that is already multi-kernel,
// and an assignment of the member, which is no test.
#include <linux/fs.h>

struct stack_dev {
	struct file *lower;
};

static int and_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	if (lower->f_op && lower->f_op->ioctl)
		return lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
	return -ENOTTY;
}

static int not_null_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct stack_dev *dev = file->private_data;
	int ret;

	if (dev->lower->f_op->ioctl != NULL) {
		ret = dev->lower->f_op->ioctl(file_inode(dev->lower), dev->lower,
					      cmd, arg);
	} else
		ret = -ENOTTY;
	return ret;
}

static int ternary_ioctl(struct inode *inode, struct file *f,
			 unsigned int cmd, unsigned long arg)
{
	struct file *lower = f->private_data;

	return lower->f_op->ioctl ?
		lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg) :
		-ENOTTY;
}

static int local_fops_ioctl(struct inode *inode, struct file *file,
			    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	const struct file_operations *fops = lower->f_op;

	if (fops->ioctl == NULL)
		return -ENOTTY;
	return (*fops->ioctl)(lower->f_path.dentry->d_inode, lower, cmd, arg);
}

static int nested_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	struct file_operations *fops;
	int err = -ENOTTY;

	fops = lower->f_op;
	if (fops) {
		if (!fops->ioctl)
			return -ENOTTY;
		err = fops->ioctl(file_inode(lower), lower, cmd, arg);
	}
	return err;
}

static int can_forward(struct file *lower)
{
	return lower->f_op && lower->f_op->ioctl;
}

static int initializer_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int ret = lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);

	return ret;
}

static long already_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

#ifdef HAVE_UNLOCKED_IOCTL
	if (!lower->f_op->unlocked_ioctl)
		return -ENOTTY;
	return lower->f_op->unlocked_ioctl(lower, cmd, arg);
#else
	if (!lower->f_op->ioctl)
		return -ENOTTY;
	return lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
#endif
}

/* No test: a run-time assignment of the member (listed by convert). */
static void set_ops(struct file_operations *ops, struct file *f)
{
	ops->ioctl = NULL;
	f->f_op->ioctl = NULL;
}

/* The test in an else if: the whole if is written twice (nothing can go
 * before an else if). */
static int else_if_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int ret = 0;

	if (cmd == 1) {
		ret = 5;
		if (lower->f_op && lower->f_op->ioctl)
			ret = lower->f_op->ioctl(file_inode(lower), lower, cmd, arg);
	} else if (!lower->f_op->ioctl)
		return -ENOTTY;
	return ret;
}

/* A call deep in a block: only its statement is written twice. */
static int deep_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int ret = -EINVAL;

	if (cmd != 1) {
		arg++;
		ret = lower->f_op->ioctl(file_inode(lower), lower, cmd, arg);
		arg--;
	}
	return ret;
}
