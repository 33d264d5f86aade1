/*
 * adv_noreturn: a driver that treats an impossible state as a bug.
 * Shape: paths ending in BUG() and panic() (noreturn calls), beside
 * ordinary returns.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/kernel.h>

#define NR_SET	_IO('X', 1)
#define NR_GET	_IO('X', 2)
#define NR_CRASH _IO('X', 3)

static int nr_state = 1;

static int nr_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case NR_SET:
		if (arg > 3)
			return -EINVAL;
		nr_state = (int)arg;
		return 0;
	case NR_GET:
		if (nr_state < 0)
			BUG();
		return nr_state;
	case NR_CRASH:
		if (arg == 3)
			panic("adv_noreturn: asked to crash");
		return -EPERM;
	}
	return -ENOTTY;
}

static struct file_operations nr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= nr_ioctl,
};

static struct miscdevice nr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_noreturn",
	.fops	= &nr_fops,
};

static int __init nr_init(void)
{
	return misc_register(&nr_misc);
}
module_init(nr_init);
MODULE_LICENSE("GPL");
