/*
 * red33_spin_ret: a DMA channel allocator guarded by an irq spinlock.
 * Shape: returns from inside a spin_lock_irqsave region (after the unlock
 * in the same block), and a return whose value is computed by a helper
 * that drops the spinlock and reads the hardware (return sr_release(...)).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/spinlock.h>
#include <asm/io.h>

#define SR_GRAB		_IO('r', 1)
#define SR_FREE		_IO('r', 2)
#define SR_PORT		0x2d8

static DEFINE_SPINLOCK(sr_lock);
static int sr_busy;

static int sr_release(unsigned long flags, int chan)
{
	sr_busy = 0;
	spin_unlock_irqrestore(&sr_lock, flags);
	return inb(SR_PORT + chan) + 1;
}

static int sr_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned long flags;
	int chan;

	spin_lock_irqsave(&sr_lock, flags);
	switch (cmd) {
	case SR_GRAB:
		if (sr_busy) {
			spin_unlock_irqrestore(&sr_lock, flags);
			return -EBUSY;
		}
		sr_busy = 1;
		chan = arg & 3;
		outb(chan, SR_PORT);
		spin_unlock_irqrestore(&sr_lock, flags);
		return chan;
	case SR_FREE:
		return sr_release(flags, arg & 3);
	}
	spin_unlock_irqrestore(&sr_lock, flags);
	return -ENOTTY;
}

static struct file_operations sr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sr_ioctl,
};

static struct miscdevice sr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_spin_ret",
	.fops	= &sr_fops,
};

static int __init sr_init(void)
{
	return misc_register(&sr_misc);
}
module_init(sr_init);
MODULE_LICENSE("GPL");
