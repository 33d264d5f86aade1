// variant multi_kernel: -D multi_kernel
/*
 * A run-time NULL assignment clears what a copy of another
 * file_operations set: "two = base; two.ioctl = NULL;", "*ops = base;
 * ops->ioctl = NULL;".  Once base carries .unlocked_ioctl, the copy does
 * too: the assignment becomes ".unlocked_ioctl = NULL", never removed as
 * an empty entry, or the copy would answer with base's handler.
 */
#include <linux/fs.h>
int dup_control();

static int dup_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return dup_control(cmd, arg);
}

static struct file_operations dup_base_fops = {
	.ioctl		= dup_ioctl,
};

static struct file_operations dup_two_fops;

static void dup_quiet(struct file_operations *ops)
{
	*ops = dup_base_fops;
	ops->ioctl = NULL;
}

static int __init dup_init(void)
{
	dup_two_fops = dup_base_fops;
	dup_two_fops.ioctl = NULL;
	return 0;
}
