// options: -D mutex
/*
 * -D mutex and a call through a file_operations whose member is named by a
 * macro argument: LOWER_OP(f, op, ...) ((f)->f_op->op(__VA_ARGS__)) used as
 * LOWER_OP(lower, ioctl, ...), and a test LOWER_HAS(lower, ioctl), as
 * 2.6 stacking filesystems wrote them.  No "->ioctl" is in the text, yet
 * the expansion calls through the member: like mutex_forward_helper,
 * both handlers are left alone.  Both converted once: the file did not
 * compile where .ioctl is gone (red_fwd_member_arg of the adversarial
 * measure, mutex-auto); in the BKL modes convert refuses the run
 * (ctext/macro_forwarding.py).  The use of LOWER_HAS at line 37 is a
 * site too (the macro tests the member its argument names).
 */
#include <linux/fs.h>

#define LOWER_OP(f, op, ...)	((f)->f_op->op(__VA_ARGS__))
#define LOWER_HAS(f, op)	((f)->f_op && (f)->f_op->op)

static int ma_low_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 33 : -ENOTTY;
}

static struct file_operations ma_low_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ma_low_ioctl,
};

static struct file ma_lower = { .f_op = &ma_low_fops };

static int ma_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = &ma_lower;

	if (!LOWER_HAS(lower, ioctl))
		return -ENOTTY;
	return LOWER_OP(lower, ioctl, file_inode(lower), lower, cmd, arg);
}

static struct file_operations ma_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ma_ioctl,
};
