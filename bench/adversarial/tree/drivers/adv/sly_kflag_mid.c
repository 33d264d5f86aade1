/*
 * sly_kflag_mid: a shutter controller whose strict build gives up when
 * the shutter reports a fault.
 * Shape: after the first statement (a shared-state write, where the lock
 * goes), a block selected by the per-object kbuild flag SLY_STRICT reads
 * the hardware and returns; its #else block returns on another test.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define KM_PORT		0x270
#define KM_OPEN		_IO('s', 1)
#define KM_CALLS	_IO('s', 2)

static int km_calls;
static int km_jammed;

static int km_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	km_calls++;
#ifdef SLY_STRICT
	if (inb(KM_PORT + 1) & 0x80)
		return -EIO;
#else
	if (km_jammed)
		return -EIO;
#endif
	switch (cmd) {
	case KM_OPEN:
		outb(1, KM_PORT);
		return km_calls;
	case KM_CALLS:
		return km_calls + km_jammed;
	}
	return -ENOTTY;
}

static struct file_operations km_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= km_ioctl,
};

static struct miscdevice km_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_kflag_mid",
	.fops	= &km_fops,
};

static int __init km_init(void)
{
	return misc_register(&km_misc);
}
module_init(km_init);
MODULE_LICENSE("GPL");
