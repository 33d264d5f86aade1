// SPDX-License-Identifier: GPL-2.0
/*
 * fx_wait: a one-slot mailbox.  FX_WAIT_TAKE sleeps until another task
 * posts a letter with FX_WAIT_POST, the way 2.6-era drivers let one ioctl
 * wait for another (a doorbell, a firmware handshake).
 *
 * Point: under the BKL this works because the BKL is dropped while its
 * holder sleeps.  A private mutex is not: with the handler under one,
 * the poster would wait for the mutex the sleeping taker holds.  -D mutex
 * must refuse this handler; the BKL conversions must keep it working.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <fixture/fx_wait.h>
#include "fixture_observer.h"

static DECLARE_WAIT_QUEUE_HEAD(fx_wait_queue);
static u32 fx_wait_letter;

static int fx_wait_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	u32 __user *argp = (u32 __user *)arg;
	u32 letter;

	fixture_observe(inode);
	switch (cmd) {
	case FX_WAIT_POST:
		if (get_user(letter, argp))
			return -EFAULT;
		if (!letter)
			return -EINVAL;
		fx_wait_letter = letter;
		wake_up_interruptible(&fx_wait_queue);
		return 0;
	case FX_WAIT_TAKE:
		if (wait_event_interruptible(fx_wait_queue, fx_wait_letter != 0))
			return -ERESTARTSYS;
		/* What the handler holds once it is woken. */
		fixture_observe(inode);
		if (put_user(fx_wait_letter, argp))
			return -EFAULT;
		fx_wait_letter = 0;
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_wait_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_wait_ioctl,
};

static struct miscdevice fx_wait_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_wait",
	.fops	= &fx_wait_fops,
};
module_misc_device(fx_wait_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl that sleeps until another ioctl wakes it");
MODULE_LICENSE("GPL");
