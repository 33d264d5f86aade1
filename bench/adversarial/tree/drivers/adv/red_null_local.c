/*
 * red_null_local: a watchdog pinged once at load time through its ioctl.
 * Shape: the NULL inode reaches the handler through a local variable
 * (struct inode *none = NULL;) and the handler never uses its inode;
 * converting it is safe (upstream dropped the argument).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RNL_PING	_IO('p', 1)
#define RNL_PINGS	_IO('p', 2)
#define RNL_PORT	0x318

static int rnl_pings;
static struct file rnl_self;

static int rnl_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd == RNL_PING) {
		outb(0x5a, RNL_PORT);
		return ++rnl_pings;
	}
	if (cmd == RNL_PINGS)
		return rnl_pings;
	return -ENOTTY;
}

static struct file_operations rnl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rnl_ioctl,
};

static struct miscdevice rnl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_null_local",
	.fops	= &rnl_fops,
};

static int __init rnl_init(void)
{
	struct inode *none = NULL;

	if (rnl_ioctl(none, &rnl_self, RNL_PING, 0) < 0)
		return -EIO;
	return misc_register(&rnl_misc);
}
module_init(rnl_init);
MODULE_LICENSE("GPL");
