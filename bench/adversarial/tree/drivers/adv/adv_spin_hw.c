/*
 * adv_spin_hw: an interrupt-shared register pair guarded by a spinlock.
 * Shape: spin_lock_irqsave around hardware access inside the handler,
 * returns while the spinlock is not held.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/spinlock.h>
#include <asm/io.h>

#define SH_LATCH	_IO('L', 1)
#define SH_PORT		0x2f8

static DEFINE_SPINLOCK(sh_lock);
static int sh_latched;

static int sh_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned long flags;
	int v;

	if (cmd != SH_LATCH)
		return -ENOTTY;
	if (arg > 0xff)
		return -EINVAL;
	spin_lock_irqsave(&sh_lock, flags);
	outb(arg, SH_PORT);
	v = inb(SH_PORT + 5);
	sh_latched = v;
	spin_unlock_irqrestore(&sh_lock, flags);
	return v;
}

static struct file_operations sh_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sh_ioctl,
};

static struct miscdevice sh_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_spin_hw",
	.fops	= &sh_fops,
};

static int __init sh_init(void)
{
	return misc_register(&sh_misc);
}
module_init(sh_init);
MODULE_LICENSE("GPL");
