/*
 * sly_kflag_init: a fan controller whose level-2 build samples the
 * tachometer before anything else.
 * Shape: the directory's Makefile sets SLY_LEVEL=2 for this object only;
 * under #if SLY_LEVEL > 1 the handler's first declaration reads the
 * hardware in its initializer and a statement expression in the second
 * returns early; the #else declarations (not compiled) do neither.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define KI_PORT		0x2b0
#define KI_SPIN		_IO('n', 1)
#define KI_RPM		_IO('n', 2)

static int ki_rpm;

static int ki_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
#if SLY_LEVEL > 1
	int tach = inb(KI_PORT);
	int step = ({ if (arg == 3) return -EINVAL; (int)(arg & 7); });
#else
	int tach = 0;
	int step = (int)(arg & 7);
#endif

	switch (cmd) {
	case KI_SPIN:
		ki_rpm += step + tach;
		outb(ki_rpm, KI_PORT + 1);
		return ki_rpm;
	case KI_RPM:
		return ki_rpm;
	}
	return -ENOTTY;
}

static struct file_operations ki_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ki_ioctl,
};

static struct miscdevice ki_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_kflag_init",
	.fops	= &ki_fops,
};

static int __init ki_init(void)
{
	return misc_register(&ki_misc);
}
module_init(ki_init);
MODULE_LICENSE("GPL");
