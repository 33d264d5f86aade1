// SPDX-License-Identifier: GPL-2.0
/*
 * fx_table: a small table behind a chip's operations, as drivers for
 * several chip variants of the time were written.  The handler claims
 * the device in a declaration through those operations,
 * "int busy = dev->ops->claim(dev);", and relies on the BKL the VFS holds.
 *
 * Point: a call through a function pointer is never known to be pure,
 * so the lock must be taken before it.  The claim notes the lock state
 * it ran under for the tests.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_table.h>
#include "fixture_observer.h"

struct fx_table_dev;

struct fx_table_ops {
	int (*claim)(struct fx_table_dev *dev);
	void (*release)(struct fx_table_dev *dev);
};

struct fx_table_dev {
	const struct fx_table_ops *ops;
	int users;
	u32 entries[FX_TABLE_SIZE];
};

/* Caller holds the BKL. */
static int fx_table_claim(struct fx_table_dev *dev)
{
	fixture_note_locking();
	if (dev->users)
		return -EBUSY;
	dev->users++;
	return 0;
}

/* Caller holds the BKL. */
static void fx_table_release(struct fx_table_dev *dev)
{
	dev->users--;
}

static const struct fx_table_ops fx_table_chip_ops = {
	.claim		= fx_table_claim,
	.release	= fx_table_release,
};

static struct fx_table_dev fx_table_dev = {
	.ops = &fx_table_chip_ops,
};

static int fx_table_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct fx_table_dev *dev = &fx_table_dev;
	int busy = dev->ops->claim(dev);
	struct fx_table_entry __user *argp = (struct fx_table_entry __user *)arg;
	struct fx_table_entry entry;
	int ret = 0;

	fixture_observe(inode);
	if (busy)
		return busy;

	if (cmd != FX_TABLE_SET && cmd != FX_TABLE_GET)
		ret = -ENOTTY;
	else if (copy_from_user(&entry, argp, sizeof(entry)))
		ret = -EFAULT;
	else if (entry.index >= FX_TABLE_SIZE)
		ret = -EINVAL;
	else if (cmd == FX_TABLE_SET)
		dev->entries[entry.index] = entry.value;
	else {
		entry.value = dev->entries[entry.index];
		if (copy_to_user(argp, &entry, sizeof(entry)))
			ret = -EFAULT;
	}
	dev->ops->release(dev);
	return ret;
}

static const struct file_operations fx_table_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_table_ioctl,
};

static struct miscdevice fx_table_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_table",
	.fops	= &fx_table_fops,
};
module_misc_device(fx_table_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl claiming its device through a function pointer");
MODULE_LICENSE("GPL");
