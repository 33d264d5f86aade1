/*
 * red33_early_ctl: a FIFO card whose handler starts by draining the
 * hardware in a for header, and a second node that switches on a register.
 * Shape: the first statement is a for loop whose header reads the
 * hardware (for (n = inb(P); n & 1; n = inb(P))); the second handler's
 * first statement is a switch whose controlling expression reads the
 * hardware and shared state (switch (inb(P) & ec_mode)), no declarations
 * with initializers.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define EC_DRAIN	_IO('e', 1)
#define EC_MODE		_IO('e', 2)
#define EC_PORT		0x2d0

static int ec_drained;
static int ec_mode = 3;

static int ec_fifo_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	int n;

	for (n = inb(EC_PORT); n & 1; n = inb(EC_PORT))
		ec_drained++;
	if (cmd != EC_DRAIN)
		return -ENOTTY;
	return ec_drained;
}

static int ec_mode_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	switch (inb(EC_PORT + 1) & ec_mode) {
	case 0:
		return cmd == EC_MODE ? ec_mode : -ENOTTY;
	default:
		if (cmd != EC_MODE)
			return -ENOTTY;
		ec_mode = arg & 3;
		return 1;
	}
}

static struct file_operations ec_fifo_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ec_fifo_ioctl,
};

static struct file_operations ec_mode_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ec_mode_ioctl,
};

static struct miscdevice ec_fifo_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_ec_fifo",
	.fops	= &ec_fifo_fops,
};

static struct miscdevice ec_mode_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_ec_mode",
	.fops	= &ec_mode_fops,
};

static int __init ec_init(void)
{
	int err = misc_register(&ec_fifo_misc);

	if (err)
		return err;
	return misc_register(&ec_mode_misc);
}
module_init(ec_init);
MODULE_LICENSE("GPL");
