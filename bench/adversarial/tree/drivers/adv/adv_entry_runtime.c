/*
 * adv_entry_runtime: fops filled in by the init function.
 * Shape: a run-time assignment of the entry (adv_rt_fops.ioctl = ...;).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define RT_GET	_IO('R', 1)

static int rt_calls;
static struct file_operations adv_rt_fops;

static int rt_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == RT_GET)
		return ++rt_calls;
	return -ENOTTY;
}

static struct miscdevice rt_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_entry_runtime",
	.fops	= &adv_rt_fops,
};

static int __init rt_init(void)
{
	adv_rt_fops.owner = THIS_MODULE;
	adv_rt_fops.ioctl = rt_ioctl;
	return misc_register(&rt_misc);
}
module_init(rt_init);
MODULE_LICENSE("GPL");
