/*
 * adv_helper_bkl: a slow flash erase that drops the big lock while it waits.
 * Shape: a helper that releases and retakes the BKL the VFS took for the
 * handler (unlock_kernel(); msleep(); lock_kernel();), hidden from the
 * handler body.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <linux/delay.h>
#include <asm/io.h>

#define HB_ERASE	_IO('e', 1)
#define HB_STATUS	_IO('e', 2)
#define HB_PORT		0x2a0

static int hb_erased;

static void hb_wait_erase(void)
{
	unlock_kernel();
	msleep(20);
	lock_kernel();
}

static int hb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case HB_ERASE:
		outb(0xff, HB_PORT);
		hb_wait_erase();
		hb_erased++;
		return inb(HB_PORT) & 0x7f;
	case HB_STATUS:
		return hb_erased;
	}
	return -ENOTTY;
}

static struct file_operations hb_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hb_ioctl,
};

static struct miscdevice hb_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_helper_bkl",
	.fops	= &hb_fops,
};

static int __init hb_init(void)
{
	return misc_register(&hb_misc);
}
module_init(hb_init);
MODULE_LICENSE("GPL");
