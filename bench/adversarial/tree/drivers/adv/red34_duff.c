/*
 * red34_duff: a pattern generator that writes a burst of bytes with an
 * unrolled copy loop, as hand-tuned 2.6 drivers did.
 * Shape: Duff's device: the switch's case labels sit inside a do/while
 * loop, so control enters the loop body in its middle; a fallthrough from
 * the last case into a return; the first statement is the switch.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define DF_BURST	_IO('d', 0x71)
#define DF_COUNT	_IO('d', 0x72)
#define DF_PORT		0x2e0

static int df_written;

static int df_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned long n = (arg + 3) / 4;

	if (cmd == DF_COUNT)
		return df_written;
	if (cmd != DF_BURST)
		return -ENOTTY;
	if (arg == 0 || arg > 16)
		return -EINVAL;
	switch (arg % 4) {
	case 0:
		do {
			outb(df_written++, DF_PORT);
	case 3:
			outb(df_written++, DF_PORT);
	case 2:
			outb(df_written++, DF_PORT);
	case 1:
			outb(df_written++, DF_PORT);
		} while (--n > 0);
		/* fall through */
	default:
		return df_written;
	}
}

static struct file_operations df_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= df_ioctl,
};

static struct miscdevice df_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_duff",
	.fops	= &df_fops,
};

static int __init df_init(void)
{
	return misc_register(&df_misc);
}
module_init(df_init);
MODULE_LICENSE("GPL");
