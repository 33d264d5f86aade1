/*
 * red34_dangle: a keypad scanner with an "is it there" check.
 * Shape: r34_ret_unless(c, r) of the kbuild-path header inc/red34local.h
 * is "if (!(c)) return (r); else", so the statement written after it is
 * its else branch: once with an empty statement, once with the shared
 * write that the lock must cover (r34_ret_unless(kd_present, -ENODEV)
 * kd_scans++;).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "red34local.h"

#define KD_PORT		0x360
#define KD_PLUG		_IO('y', 0x61)
#define KD_SCAN		_IO('y', 0x62)

static int kd_present;
static int kd_scans;

static int kd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == KD_PLUG) {
		kd_present = arg;
		return 0;
	}
	r34_ret_unless(cmd == KD_SCAN, -ENOTTY);
	r34_ret_unless(kd_present, -ENODEV) kd_scans++;
	return inb(KD_PORT) + kd_scans;
}

static struct file_operations kd_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= kd_ioctl,
};

static struct miscdevice kd_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_dangle",
	.fops	= &kd_fops,
};

static int __init kd_init(void)
{
	return misc_register(&kd_misc);
}
module_init(kd_init);
MODULE_LICENSE("GPL");
