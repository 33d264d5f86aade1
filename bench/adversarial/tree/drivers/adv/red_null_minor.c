/*
 * red_null_minor: a dual-unit controller whose load routine sets up the
 * units through the ioctl handler.
 * Shape: a caller passes a NULL inode spelt through a macro of the file
 * ((struct inode *)0) together with a real file; the handler reads the
 * minor only when it has an inode (inode ? iminor(inode) : 0).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RNM_SETUP	_IO('o', 1)
#define RNM_UNIT	_IO('o', 2)
#define RNM_PORT	0x310
#define RNM_NO_INODE	((struct inode *)0)

static struct inode rnm_boot_inode = { .i_rdev = MKDEV(10, 3) };
static struct dentry rnm_boot_dentry = { .d_inode = &rnm_boot_inode };
static struct file rnm_boot_file;
static int rnm_units[4];

static int rnm_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	unsigned int unit = inode ? iminor(inode) & 3 : 0;

	switch (cmd) {
	case RNM_SETUP:
		rnm_units[unit]++;
		outb(unit, RNM_PORT);
		return unit;
	case RNM_UNIT:
		return rnm_units[unit] * 10 + unit;
	}
	return -ENOTTY;
}

static struct file_operations rnm_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rnm_ioctl,
};

static struct miscdevice rnm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_null_minor",
	.fops	= &rnm_fops,
};

static int __init rnm_init(void)
{
	rnm_boot_file.f_dentry = &rnm_boot_dentry;
	rnm_boot_file.f_inode = &rnm_boot_inode;
	if (rnm_ioctl(RNM_NO_INODE, &rnm_boot_file, RNM_SETUP, 0) != 0)
		return -EIO;
	return misc_register(&rnm_misc);
}
module_init(rnm_init);
MODULE_LICENSE("GPL");
