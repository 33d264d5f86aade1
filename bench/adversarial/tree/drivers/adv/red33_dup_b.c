/*
 * red33_dup_b: the second module with a handler named dup_ioctl; its init
 * resets the board through the handler with a NULL inode and file.
 * Shape: see red33_dup_a.c; here the handler never uses its inode.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define DUP_B_RESET	_IO('d', 2)
#define DUP_B_READ	_IO('d', 3)
#define DUP_B_PORT	0x2ec

static int dup_resets;

static int dup_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case DUP_B_RESET:
		outb(0, DUP_B_PORT);
		return ++dup_resets;
	case DUP_B_READ:
		return inb(DUP_B_PORT) + dup_resets;
	}
	return -ENOTTY;
}

static struct file_operations dup_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= dup_ioctl,
};

static struct miscdevice dup_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_dup_b",
	.fops	= &dup_fops,
};

static int __init dup_init(void)
{
	int err = misc_register(&dup_misc);

	if (err)
		return err;
	return dup_ioctl(NULL, NULL, DUP_B_RESET, 0) > 0 ? 0 : -EIO;
}
module_init(dup_init);
MODULE_LICENSE("GPL");
