/*
 * adv_null_inode: a timer chip also driven from the kernel at load time.
 * Shape: a caller of the handler that passes NULL as the inode; the
 * handler never uses its inode.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define NI_RATE		_IO('Z', 1)
#define NI_PORT		0x43

static int ni_rate;

static int ni_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != NI_RATE)
		return -ENOTTY;
	if (!arg || arg > 1000)
		return -EINVAL;
	ni_rate = (int)arg;
	outb(ni_rate & 0xff, NI_PORT);
	return ni_rate;
}

static struct file_operations ni_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ni_ioctl,
};

static struct miscdevice ni_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_null_inode",
	.fops	= &ni_fops,
};

static int __init ni_init(void)
{
	ni_ioctl(NULL, NULL, NI_RATE, 100);
	return misc_register(&ni_misc);
}
module_init(ni_init);
MODULE_LICENSE("GPL");
