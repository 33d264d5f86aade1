/*
 * st_busy_legacy: the second legacy driver of the harness's own test.
 * BUSY_SEND spins on a hardware busy bit, sleeping between reads: the
 * legacy VFS lets other commands run in each sleep (the BKL is dropped),
 * a mutex conversion lets none, and both are right.  BUSY_WAIT sleeps
 * until BUSY_KICK sets a flag, giving up after a few tries: only the
 * other command can end it, so under a mutex it gives up.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/delay.h>
#include <asm/io.h>

#define BUSY_SEND	_IO('u', 1)
#define BUSY_WAIT	_IO('u', 2)
#define BUSY_KICK	_IO('u', 3)
#define BUSY_PORT	0x3c0

static int busy_kicked;

static int busy_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	int tries = 0;

	switch (cmd) {
	case BUSY_SEND:
		while (inb(BUSY_PORT) & 0x80) {
			if (++tries > 8)
				return -ETIMEDOUT;
			msleep(1);
		}
		outb(arg, BUSY_PORT + 1);
		return tries;
	case BUSY_WAIT:
		while (!busy_kicked) {
			if (++tries > 8)
				return -ETIMEDOUT;
			msleep(1);
		}
		busy_kicked = 0;
		return 0;
	case BUSY_KICK:
		busy_kicked = 1;
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations busy_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= busy_ioctl,
};

static struct miscdevice busy_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "st_busy",
	.fops	= &busy_fops,
};

static int __init busy_init(void)
{
	return misc_register(&busy_misc);
}
module_init(busy_init);
MODULE_LICENSE("GPL");
