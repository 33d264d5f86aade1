/*
 * red_read_slot: per-command counters in a global array.
 * Shape: a declaration initializer that reads a global array element
 * indexed by a parameter (int seen = rrs_slots[cmd & 1];), written back
 * as rrs_slots[cmd & 1] = seen + 1.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define RRS_A		_IO('u', 0x10)
#define RRS_B		_IO('u', 0x11)

static int rrs_slots[2];

static int rrs_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int seen = rrs_slots[cmd & 1];

	if (cmd != RRS_A && cmd != RRS_B)
		return -ENOTTY;
	rrs_slots[cmd & 1] = seen + 1;
	return seen;
}

static struct file_operations rrs_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rrs_ioctl,
};

static struct miscdevice rrs_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_read_slot",
	.fops	= &rrs_fops,
};

static int __init rrs_init(void)
{
	return misc_register(&rrs_misc);
}
module_init(rrs_init);
MODULE_LICENSE("GPL");
