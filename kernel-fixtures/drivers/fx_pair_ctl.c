// SPDX-License-Identifier: GPL-2.0
/*
 * fx_pair: the control half of the fx_pair module: clears and reads the
 * total fx_pair_main.c adds to.  Its device is registered by
 * fx_pair_main.c's init.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_pair.h>
#include "fixture_observer.h"
#include "fx_pair.h"

static int fx_pair_ctl_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	struct fx_pair_state *state = &fx_pair_state;

	fixture_observe(inode);
	switch (cmd) {
	case FX_PAIR_CTL_CLEAR:
		state->total = 0;
		state->adds = 0;
		return 0;
	case FX_PAIR_CTL_TOTAL:
		return put_user(state->total, (u32 __user *)arg) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_pair_ctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_pair_ctl_ioctl,
};

struct miscdevice fx_pair_ctl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_pair_ctl",
	.fops	= &fx_pair_ctl_fops,
};
