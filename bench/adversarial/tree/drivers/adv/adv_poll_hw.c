/*
 * adv_poll_hw: a command FIFO that is polled for its ready bit.
 * Shape: a busy-wait on the hardware (udelay in a bounded for loop) and a
 * do/while poll; nothing another ioctl must set.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/delay.h>
#include <asm/io.h>

#define PH_STATUS	0x1f7
#define PH_DATA		0x1f0
#define PH_SEND		_IO('P', 1)
#define PH_RECV		_IO('P', 2)

static int ph_wait_ready(void)
{
	int i;

	for (i = 0; i < 1000 && !(inb(PH_STATUS) & 0x80); i++)
		udelay(10);
	return i < 1000 ? 0 : -ETIMEDOUT;
}

static int ph_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int err, n = 0;

	switch (cmd) {
	case PH_SEND:
		err = ph_wait_ready();
		if (err)
			return err;
		outb(arg, PH_DATA);
		return 0;
	case PH_RECV:
		do {
			udelay(1);
			n++;
		} while (!(inb(PH_STATUS) & 0x80) && n < 50);
		return inb(PH_DATA) + n;
	}
	return -ENOTTY;
}

static struct file_operations ph_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ph_ioctl,
};

static struct miscdevice ph_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_poll_hw",
	.fops	= &ph_fops,
};

static int __init ph_init(void)
{
	return misc_register(&ph_misc);
}
module_init(ph_init);
MODULE_LICENSE("GPL");
