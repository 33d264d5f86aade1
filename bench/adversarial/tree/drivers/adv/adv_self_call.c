/*
 * adv_self_call: a composite command built from two simple ones.
 * Shape: the handler calls itself (RESET = STOP then CLEAR).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define SC_STOP		_IO('Y', 1)
#define SC_CLEAR	_IO('Y', 2)
#define SC_RESET	_IO('Y', 3)
#define SC_PORT		0x2b0

static int sc_running = 1, sc_count = 9;

static int sc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int err;

	switch (cmd) {
	case SC_STOP:
		sc_running = 0;
		outb(0, SC_PORT);
		return 0;
	case SC_CLEAR:
		if (sc_running)
			return -EBUSY;
		sc_count = 0;
		return 0;
	case SC_RESET:
		err = sc_ioctl(inode, file, SC_STOP, 0);
		if (err)
			return err;
		return sc_ioctl(inode, file, SC_CLEAR, 0);
	}
	return -ENOTTY;
}

static struct file_operations sc_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sc_ioctl,
};

static struct miscdevice sc_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_self_call",
	.fops	= &sc_fops,
};

static int __init sc_init(void)
{
	return misc_register(&sc_misc);
}
module_init(sc_init);
MODULE_LICENSE("GPL");
