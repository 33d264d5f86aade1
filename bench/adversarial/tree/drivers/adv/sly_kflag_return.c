/*
 * sly_kflag_return: a sensor board whose strict build refuses a command
 * while the board reports busy.
 * Shape: the directory's Makefile defines SLY_STRICT for this object only
 * (CFLAGS_sly_kflag_return.o := -DSLY_STRICT); under it the handler starts
 * with a hardware read that may return early, before the code a lock
 * would be pushed down to.  The #else branch (not compiled) has neither.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define KF_PORT		0x2c0
#define KF_ARM		_IO('f', 1)
#define KF_COUNT	_IO('f', 2)

static int kf_armed;
static int kf_quiet;

static int kf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int n;

#ifdef SLY_STRICT
	if (inb(KF_PORT + 1) & 0x80)
		return -EBUSY;
#else
	if (kf_quiet)
		return -EAGAIN;
#endif
	switch (cmd) {
	case KF_ARM:
		n = ++kf_armed;
		outb(n, KF_PORT);
		return n;
	case KF_COUNT:
		return kf_armed + kf_quiet;
	}
	return -ENOTTY;
}

static struct file_operations kf_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= kf_ioctl,
};

static struct miscdevice kf_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_kflag_return",
	.fops	= &kf_fops,
};

static int __init kf_init(void)
{
	return misc_register(&kf_misc);
}
module_init(kf_init);
MODULE_LICENSE("GPL");
