/*
 * red33_fops_nest: a multi-board driver that keeps each board's
 * file_operations inside its board descriptor.
 * Shape: an array of a struct with an embedded file_operations written
 * positionally (no .fops =), a union holding a file_operations, and a
 * static const fops declared first and defined after the handler.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define FN_ID		_IO('n', 1)
#define FN_PORT		0x2f0

static const struct file_operations fn_spare_fops;

struct fn_board {
	const char *name;
	struct file_operations fops;
	int port;
};

union fn_ops {
	struct file_operations fops;
	long pad[32];
};

static int fn_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != FN_ID)
		return -ENOTTY;
	return inb(FN_PORT + (iminor(inode) & 3)) + 1;
}

static int fn_alt_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd != FN_ID)
		return -ENOTTY;
	outb(arg, FN_PORT + 4);
	return 4;
}

static int fn_spare_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	return cmd == FN_ID ? 9 : -ENOTTY;
}

static struct fn_board fn_boards[] = {
	{ "red33_fn0", { .owner = THIS_MODULE, .ioctl = fn_ioctl }, 0 },
	{ "red33_fn1", { THIS_MODULE, .ioctl = fn_ioctl }, 1 },
};

static union fn_ops fn_alt = {
	.fops = {
		.owner	= THIS_MODULE,
		.ioctl	= fn_alt_ioctl,
	},
};

static const struct file_operations fn_spare_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fn_spare_ioctl,
};

static struct miscdevice fn_misc[4] = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red33_fn0", .fops = &fn_boards[0].fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red33_fn1", .fops = &fn_boards[1].fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red33_fn_alt", .fops = &fn_alt.fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "red33_fn_spare", .fops = &fn_spare_fops },
};

static int __init fn_init(void)
{
	int i, err;

	for (i = 0; i < 4; i++) {
		err = misc_register(&fn_misc[i]);
		if (err)
			return err;
	}
	return 0;
}
module_init(fn_init);
MODULE_LICENSE("GPL");
