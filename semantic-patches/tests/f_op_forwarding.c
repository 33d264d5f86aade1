// rule: f_op_ioctl_forwarding.cocci
// variant multi_kernel: -D multi_kernel
// variant legacy: -D legacy_ioctl
// variant legacy_multi: -D legacy_ioctl -D multi_kernel
// Calls through a file_operations in several spellings: E->f_op->ioctl,
// (*E->f_op->ioctl), a local struct file_operations *; the inode each passes
// is its file's in every spelling.  Refused: the caller's own inode.  Never
// touched: the .ioctl of a tty_operations.  Variants legacy and legacy_multi:
// a target that still has .ioctl, where a call goes through the fallback
// helper (f_op_forwarding_fallback.c).
#include <linux/fs.h>

struct stack_dev {
	struct file *lower;
	struct file_operations *lower_fops;
};

static int up_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	if (!lower->f_op || !lower->f_op->ioctl)
		return -ENOTTY;
	return lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
}

static long relay(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct stack_dev *dev = file->private_data;
	long ret;

	ret = (*dev->lower->f_op->ioctl)(file_inode(dev->lower), dev->lower, cmd, arg);
	return ret;
}

static int via_fops(struct stack_dev *dev, unsigned int cmd, unsigned long arg)
{
	struct file_operations *fops = dev->lower_fops;
	int err;

	err = fops->ioctl(dev->lower->f_path.dentry->d_inode, dev->lower, cmd, arg);
	return err;
}

static int wrong_inode(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return lower->f_op->ioctl(inode, lower, cmd, arg);
}

static int tty_call(struct tty_struct *tty, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return tty->driver->ioctl(tty, file, cmd, arg);
}
