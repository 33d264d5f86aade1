/*
 * adv_fallthrough: a mode register where each mode implies the lower ones.
 * Shape: three cases falling through into each other, a default in the
 * middle of the switch, a return from inside the fallthrough chain.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define FT_MODE_FULL	_IO('t', 3)
#define FT_MODE_HALF	_IO('t', 2)
#define FT_MODE_LOW	_IO('t', 1)
#define FT_MODE_OFF	_IO('t', 0)
#define FT_PORT		0x3f0

static int ft_bits;

static int ft_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int bits = 0;

	switch (cmd) {
	case FT_MODE_FULL:
		bits |= 4;
		if (arg == 9)
			return -EINVAL;
		/* fall through */
	case FT_MODE_HALF:
		bits |= 2;
		/* fall through */
	default:
		if (cmd != FT_MODE_FULL && cmd != FT_MODE_HALF && cmd != FT_MODE_LOW)
			return -ENOTTY;
		/* fall through */
	case FT_MODE_LOW:
		bits |= 1;
		break;
	case FT_MODE_OFF:
		bits = 0;
	}
	ft_bits = bits;
	outb(bits, FT_PORT);
	return bits;
}

static struct file_operations ft_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ft_ioctl,
};

static struct miscdevice ft_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_fallthrough",
	.fops	= &ft_fops,
};

static int __init ft_init(void)
{
	return misc_register(&ft_misc);
}
module_init(ft_init);
MODULE_LICENSE("GPL");
