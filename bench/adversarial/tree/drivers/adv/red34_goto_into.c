/*
 * red34_goto_into: a FIFO whose "drain" command reuses the read loop of
 * the "read" command by jumping into the middle of its block.
 * Shape: a goto from before any shared access to a label inside the block
 * of an if, past the statements where a pushed-down lock would be taken;
 * the code after the label reads the hardware and a shared counter, and
 * returns from inside the block.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define GI_READ		_IO('g', 0x61)
#define GI_DRAIN	_IO('g', 0x62)
#define GI_PORT		0x2d0

static int gi_reads;

static int gi_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int v;

	if (cmd == GI_DRAIN)
		goto drain;
	if (cmd == GI_READ) {
		gi_reads++;
		outb(arg, GI_PORT);
drain:
		v = inb(GI_PORT);
		gi_reads += 2;
		if (v & 0x80)
			return -EIO;
		return v + gi_reads;
	}
	return -ENOTTY;
}

static struct file_operations gi_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= gi_ioctl,
};

static struct miscdevice gi_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_goto_into",
	.fops	= &gi_fops,
};

static int __init gi_init(void)
{
	return misc_register(&gi_misc);
}
module_init(gi_init);
MODULE_LICENSE("GPL");
