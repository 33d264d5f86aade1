/*
 * adv_hidden_kbuild: eight slots of a device that must be open.
 * Shape: a quoted header found only through the directory's kbuild include
 * path (EXTRA_CFLAGS += -I$(src)/inc), whose macros return.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include "advlocal.h"

#define HK_SLOT_SET	_IOW('k', 1, int)
#define HK_SLOT_GET	_IOR('k', 2, int)

struct hk_dev {
	int open_count;
	int slots[8];
	int cur;
};
static struct hk_dev hk;

static int hk_open(struct inode *inode, struct file *file)
{
	hk.open_count++;
	file->private_data = &hk;
	return 0;
}

static int hk_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct hk_dev *d = file->private_data;
	int slot = (int)(arg & 0xff) - 1;

	local_fail_if_closed(d);
	switch (cmd) {
	case HK_SLOT_SET:
		LOCAL_VALIDATE(slot);
		d->cur = slot;
		d->slots[slot]++;
		return d->slots[slot];
	case HK_SLOT_GET:
		return d->slots[d->cur];
	}
	return -ENOTTY;
}

static struct file_operations hk_fops = {
	.owner	= THIS_MODULE,
	.open	= hk_open,
	.ioctl	= hk_ioctl,
};

static struct miscdevice hk_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_hidden_kbuild",
	.fops	= &hk_fops,
};

static int __init hk_init(void)
{
	return misc_register(&hk_misc);
}
module_init(hk_init);
MODULE_LICENSE("GPL");
