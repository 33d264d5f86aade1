/*
 * Run-time entries that cannot be converted safely are left alone, each
 * with its reason: one file also assigns .unlocked_ioctl at run time (which
 * the VFS calls would depend on the order), and one assignment goes through
 * a pointer whose type spatch cannot see.
 */
#include <linux/fs.h>

static struct file_operations mix_fops;

static long mix_unlocked_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	return -ENOTTY;
}

static int mix_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int odd_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int __init mix_init(struct mix_device *dev)
{
	mix_fops.unlocked_ioctl = mix_unlocked_ioctl;
	mix_fops.ioctl = mix_ioctl;
	dev->ops->ioctl = odd_ioctl;
	return 0;
}
