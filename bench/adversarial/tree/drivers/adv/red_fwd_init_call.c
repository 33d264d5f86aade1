/*
 * red_fwd_init_call: a board reset at load time done by issuing the
 * driver's own reset command through its fops.
 * Shape: module init calls rfi_fops.ioctl(NULL, NULL, RFI_RESET, 0)
 * through the fops object (by value, NULL inode, NULL file) and also
 * through a pointer; the handler never uses inode or file.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RFI_RESET	_IO('i', 1)
#define RFI_COUNT	_IO('i', 2)
#define RFI_PORT	0x3e8

static int rfi_resets;

static int rfi_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RFI_RESET:
		rfi_resets++;
		outb(0xff, RFI_PORT);
		return 0;
	case RFI_COUNT:
		return rfi_resets;
	}
	return -ENOTTY;
}

static struct file_operations rfi_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rfi_ioctl,
};

static struct miscdevice rfi_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_init_call",
	.fops	= &rfi_fops,
};

static int __init rfi_init(void)
{
	const struct file_operations *ops = &rfi_fops;
	int err;

	err = rfi_fops.ioctl(NULL, NULL, RFI_RESET, 0);
	if (err)
		return err;
	err = ops->ioctl(NULL, NULL, RFI_RESET, 0);
	if (err)
		return err;
	return misc_register(&rfi_misc);
}
module_init(rfi_init);
MODULE_LICENSE("GPL");
