// SPDX-License-Identifier: GPL-2.0
/*
 * fx_poll: FX_POLL_COLLECT and FX_POLL_SETTLE poll, sleeping, until
 * another task's FX_POLL_ARM sets the state they wait for, the way
 * 2.6-era drivers waited for firmware: "while (!flag) msleep(10);".
 *
 * Point: under the BKL this works because the BKL is dropped while its
 * holder sleeps.  A private mutex is not: the arming call would wait for
 * the mutex the poller holds, for ever.  -D mutex must refuse this
 * handler, with the reason; the BKL conversions must keep it working.
 * Two spellings: a while loop on a file-scope flag in the handler, and a
 * do/while on a member in a helper of the file.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_poll.h>
#include "fixture_observer.h"

struct fx_poll_dev {
	int ready;
};

static struct fx_poll_dev fx_poll_dev;
static int fx_poll_armed;
static u32 fx_poll_value;

static void fx_poll_settle(struct fx_poll_dev *dev)
{
	do {
		msleep(5);
	} while (!dev->ready);
	dev->ready = 0;
}

static int fx_poll_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	u32 __user *argp = (u32 __user *)arg;
	u32 value;

	fixture_observe(inode);
	switch (cmd) {
	case FX_POLL_ARM:
		if (get_user(value, argp))
			return -EFAULT;
		if (!value)
			return -EINVAL;
		fx_poll_value = value;
		fx_poll_armed = 1;
		fx_poll_dev.ready = 1;
		return 0;
	case FX_POLL_COLLECT:
		while (!fx_poll_armed)
			msleep(10);
		/* What the handler holds once the value is there. */
		fixture_observe(inode);
		if (put_user(fx_poll_value, argp))
			return -EFAULT;
		fx_poll_armed = 0;
		return 0;
	case FX_POLL_SETTLE:
		fx_poll_settle(&fx_poll_dev);
		fixture_observe(inode);
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_poll_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_poll_ioctl,
};

static struct miscdevice fx_poll_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_poll",
	.fops	= &fx_poll_fops,
};
module_misc_device(fx_poll_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl polling for state another ioctl sets");
MODULE_LICENSE("GPL");
