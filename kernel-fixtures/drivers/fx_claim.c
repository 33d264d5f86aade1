// SPDX-License-Identifier: GPL-2.0
/*
 * fx_claim: a level that may only be touched while the device is claimed.
 * The claim is taken in the handler's declarations,
 * "int busy = fx_claim_get(dev);", and relies on the BKL the VFS holds.
 *
 * Point: a declaration initializer that needs the lock.  A pushed-down
 * lock_kernel() must come before that call, not after the declarations;
 * fx_claim_get() notes the lock state it ran under for the tests.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_claim.h>
#include "fixture_observer.h"

struct fx_claim_dev {
	int users;
	u32 level;
};

static struct fx_claim_dev fx_claim_dev;

/* Caller holds the BKL. */
static int fx_claim_get(struct fx_claim_dev *dev)
{
	fixture_note_locking();
	if (dev->users)
		return -EBUSY;
	dev->users++;
	return 0;
}

/* Caller holds the BKL. */
static void fx_claim_put(struct fx_claim_dev *dev)
{
	dev->users--;
}

static int fx_claim_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct fx_claim_dev *dev = &fx_claim_dev;
	int busy = fx_claim_get(dev);
	u32 __user *argp = (u32 __user *)arg;
	u32 level;
	int ret;

	fixture_observe(inode);
	if (busy)
		return busy;

	switch (cmd) {
	case FX_CLAIM_SET_LEVEL:
		ret = get_user(level, argp);
		if (!ret && level > FX_CLAIM_LEVEL_MAX)
			ret = -EINVAL;
		if (!ret)
			dev->level = level;
		break;
	case FX_CLAIM_GET_LEVEL:
		ret = put_user(dev->level, argp);
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	fx_claim_put(dev);
	return ret;
}

static const struct file_operations fx_claim_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_claim_ioctl,
};

static struct miscdevice fx_claim_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_claim",
	.fops	= &fx_claim_fops,
};
module_misc_device(fx_claim_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl claiming its device in a declaration");
MODULE_LICENSE("GPL");
