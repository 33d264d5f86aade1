/*
 * adv_body_bkl_drop: a tape-like device that lets others in while it rewinds.
 * Shape: the handler itself drops and retakes the BKL the VFS gave it
 * (unlock_kernel(); ...; lock_kernel();) around a sleep.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <linux/delay.h>

#define BD_REWIND	_IO('B', 1)
#define BD_POS		_IO('B', 2)
#define BD_STEP		_IO('B', 3)

static int bd_pos = 7;

static int bd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BD_REWIND:
		unlock_kernel();
		msleep(50);
		lock_kernel();
		bd_pos = 0;
		return 0;
	case BD_POS:
		return bd_pos;
	case BD_STEP:
		return ++bd_pos;
	}
	return -ENOTTY;
}

static struct file_operations bd_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= bd_ioctl,
};

static struct miscdevice bd_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_body_bkl_drop",
	.fops	= &bd_fops,
};

static int __init bd_init(void)
{
	return misc_register(&bd_misc);
}
module_init(bd_init);
MODULE_LICENSE("GPL");
