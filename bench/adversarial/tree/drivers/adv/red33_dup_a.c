/*
 * red33_dup_a: one of two modules of this directory whose handlers have
 * the same static name (dup_ioctl); this one reads its minor.
 * Shape: the same handler name in two modules; the other module
 * (red33_dup_b) calls its own dup_ioctl with a NULL inode, which is safe
 * there and would not be here.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define DUP_A_READ	_IO('d', 1)
#define DUP_A_PORT	0x2e8

static int dup_reads;

static int dup_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != DUP_A_READ)
		return -ENOTTY;
	dup_reads++;
	return inb(DUP_A_PORT + (iminor(inode) & 1)) + dup_reads;
}

static struct file_operations dup_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= dup_ioctl,
};

static struct miscdevice dup_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_dup_a",
	.fops	= &dup_fops,
};

static int __init dup_init(void)
{
	return misc_register(&dup_misc);
}
module_init(dup_init);
MODULE_LICENSE("GPL");
