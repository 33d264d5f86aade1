// SPDX-License-Identifier: GPL-2.0
/*
 * fx_rmw: counts the joins of its users.
 *
 * Point: a read-modify-write that starts in a declaration initializer,
 * "int users = dev->users;", and ends in the body, "dev->users = users + 1;".
 * The BKL the VFS took before the handler made the two one step.  A
 * conversion that takes the lock after the declarations reads the count
 * unlocked: a racing caller's join is lost once the lock sleeps (the
 * mutex of a caller that sleeps in fx_rmw_settle() while holding it).
 * The read must move under the lock (the declaration split).
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_rmw.h>
#include "fixture_observer.h"

struct fx_rmw_dev {
	int users;
};

static struct fx_rmw_dev fx_rmw_dev;

/* The board needs a moment after each join; callers hold the lock. */
static void fx_rmw_settle(void)
{
	msleep(1);
}

static int fx_rmw_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	struct fx_rmw_dev *dev = &fx_rmw_dev;
	int users = dev->users;

	fixture_observe(inode);
	switch (cmd) {
	case FX_RMW_RESET:
		dev->users = 0;
		return 0;
	case FX_RMW_JOIN:
		if (users >= FX_RMW_USERS_MAX)
			return -EBUSY;
		dev->users = users + 1;
		fx_rmw_settle();
		return 0;
	case FX_RMW_COUNT:
		return put_user(users, (u32 __user *)arg) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_rmw_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_rmw_ioctl,
};

static struct miscdevice fx_rmw_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_rmw",
	.fops	= &fx_rmw_fops,
};
module_misc_device(fx_rmw_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl with a read-modify-write begun in a declaration");
MODULE_LICENSE("GPL");
