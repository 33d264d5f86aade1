// SPDX-License-Identifier: GPL-2.0
/*
 * fx_stack: stacked on /dev/fx_lower, as eCryptfs was on its lower file
 * system.  open() opens the lower device; every command fx_stack does not
 * know is forwarded through the lower file's operations.  A character
 * device of its own, not a misc one: misc_open() holds misc_mtx while it
 * calls open(), and opening the lower misc device would take it again.
 *
 * Point: calls through a file_operations pointer, in two spellings:
 * lower->f_op->ioctl(inode, file, cmd, arg) with this file (guarded by a
 * test of ->ioctl, as eCryptfs did), and (*lower->f_op->ioctl)(...) with
 * the lower file and its inode.  Once fx_lower.c is converted its .ioctl
 * is NULL: both must call ->unlocked_ioctl, and the test must follow, or
 * every forwarded command fails (the multi-kernel output writes the test
 * and the call under #ifdef HAVE_UNLOCKED_IOCTL, and keeps both in #else).  fixture_observe() runs again after a forwarded call, so the
 * test sees what this handler holds when the lower one has returned.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_stack.h>
#include "fixture_observer.h"

#define FX_STACK_NAME	"fx_stack"
#define FX_STACK_LOWER	"/dev/fx_lower"

static int fx_stack_major;
static struct class *fx_stack_class;

static int fx_stack_open(struct inode *inode, struct file *file)
{
	struct file *lower = filp_open(FX_STACK_LOWER, O_RDWR, 0);

	if (IS_ERR(lower))
		return PTR_ERR(lower);
	file->private_data = lower;
	return 0;
}

static int fx_stack_release(struct inode *inode, struct file *file)
{
	return filp_close(file->private_data, NULL);
}

/* Asks the lower file itself, with its own inode. */
static int fx_stack_peek(struct file *lower, unsigned long arg)
{
	return (*lower->f_op->ioctl)(lower->f_dentry->d_inode, lower,
				     FX_LOWER_GET, arg);
}

static int fx_stack_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int ret;

	fixture_observe(inode);
	switch (cmd) {
	case FX_STACK_DEPTH:
		return put_user(1, (u32 __user *)arg) ? -EFAULT : 0;
	case FX_STACK_PEEK:
		ret = fx_stack_peek(lower, arg);
		break;
	default:
		if (!lower->f_op || !lower->f_op->ioctl)
			return -ENOTTY;
		ret = lower->f_op->ioctl(inode, file, cmd, arg);
		break;
	}
	fixture_observe(inode);
	return ret;
}

static const struct file_operations fx_stack_fops = {
	.owner		= THIS_MODULE,
	.open		= fx_stack_open,
	.release	= fx_stack_release,
	.ioctl		= fx_stack_ioctl,
};

static int __init fx_stack_init(void)
{
	struct device *dev;

	fx_stack_major = register_chrdev(0, FX_STACK_NAME, &fx_stack_fops);
	if (fx_stack_major < 0)
		return fx_stack_major;

	fx_stack_class = class_create(THIS_MODULE, FX_STACK_NAME);
	if (IS_ERR(fx_stack_class)) {
		unregister_chrdev(fx_stack_major, FX_STACK_NAME);
		return PTR_ERR(fx_stack_class);
	}
	dev = device_create(fx_stack_class, NULL, MKDEV(fx_stack_major, 0), NULL,
			    FX_STACK_NAME);
	if (IS_ERR(dev))
		pr_warn(FX_STACK_NAME ": no device node (%ld)\n", PTR_ERR(dev));
	return 0;
}

static void __exit fx_stack_exit(void)
{
	device_destroy(fx_stack_class, MKDEV(fx_stack_major, 0));
	class_destroy(fx_stack_class);
	unregister_chrdev(fx_stack_major, FX_STACK_NAME);
}

module_init(fx_stack_init);
module_exit(fx_stack_exit);

MODULE_DESCRIPTION("Fixture: legacy ioctl forwarding to the lower file's ->ioctl");
MODULE_LICENSE("GPL");
