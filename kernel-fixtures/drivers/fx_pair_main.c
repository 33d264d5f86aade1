// SPDX-License-Identifier: GPL-2.0
/*
 * fx_pair: the adding half of a two-file module (fx_pair_main.c and
 * fx_pair_ctl.c, linked as fx_pair.o), and its init.
 *
 * Point: in mutex mode, one private mutex per file would let the two
 * handlers update the shared total at once; the module needs one mutex
 * (the kbuild composite object, fx_pair-y): defined in this file, first in
 * fx_pair-y, and declared in fx_pair_ctl.c.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_pair.h>
#include "fixture_observer.h"
#include "fx_pair.h"

struct fx_pair_state fx_pair_state;

static int fx_pair_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	struct fx_pair_state *state = &fx_pair_state;
	u32 __user *argp = (u32 __user *)arg;
	u32 amount;

	fixture_observe(inode);
	switch (cmd) {
	case FX_PAIR_ADD:
		if (get_user(amount, argp))
			return -EFAULT;
		if (amount > FX_PAIR_ADD_MAX)
			return -EINVAL;
		state->total += amount;
		state->adds++;
		return 0;
	case FX_PAIR_TOTAL:
		return put_user(state->total, argp) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_pair_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_pair_ioctl,
};

static struct miscdevice fx_pair_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_pair",
	.fops	= &fx_pair_fops,
};

static int __init fx_pair_init(void)
{
	int err = misc_register(&fx_pair_misc);

	if (err)
		return err;
	err = misc_register(&fx_pair_ctl_misc);
	if (err)
		misc_deregister(&fx_pair_misc);
	return err;
}

static void __exit fx_pair_exit(void)
{
	misc_deregister(&fx_pair_ctl_misc);
	misc_deregister(&fx_pair_misc);
}

module_init(fx_pair_init);
module_exit(fx_pair_exit);

MODULE_DESCRIPTION("Fixture: a two-file module whose legacy ioctls share state");
MODULE_LICENSE("GPL");
