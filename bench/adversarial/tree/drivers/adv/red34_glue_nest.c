/*
 * red34_glue_nest: an out-of-tree driver for 2.6.9 and later kernels whose
 * glue is nested and negated.
 * Shape: "#ifndef HAVE_UNLOCKED_IOCTL" selecting .ioctl (the test negated),
 * and, inside "#ifdef CONFIG_COMPAT" ... "#if defined(HAVE_UNLOCKED_IOCTL)",
 * an unlocked entry that takes the BKL and calls the legacy handler.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>

#define GN_GET		_IO('n', 0xb1)
#define GN_SET		_IO('n', 0xb2)

static int gn_value = 5;

static int gn_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case GN_GET:
		return gn_value;
	case GN_SET:
		gn_value = arg;
		return 0;
	}
	return -ENOTTY;
}

#ifdef CONFIG_COMPAT
#if defined(HAVE_UNLOCKED_IOCTL)
static long gn_unlocked_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = gn_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
#endif
#endif

static struct file_operations gn_fops = {
	.owner		= THIS_MODULE,
#ifndef HAVE_UNLOCKED_IOCTL
	.ioctl		= gn_ioctl,
#else
#ifdef CONFIG_COMPAT
	.unlocked_ioctl	= gn_unlocked_ioctl,
#else
	.ioctl		= gn_ioctl,
#endif
#endif
};

static struct miscdevice gn_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_glue_nest",
	.fops	= &gn_fops,
};

static int __init gn_init(void)
{
	return misc_register(&gn_misc);
}
module_init(gn_init);
MODULE_LICENSE("GPL");
