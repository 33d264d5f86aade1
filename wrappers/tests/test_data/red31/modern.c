/*
 * hydro: reads as a modern driver; what its Makefile (or a header it is
 * built with) makes of .unlocked_ioctl is the question.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

static long hydro_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static const struct file_operations hydro_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= hydro_ioctl,
};

static struct miscdevice hydro_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "hydro",
	.fops	= &hydro_fops,
};

static int __init hydro_init(void)
{
	return misc_register(&hydro_dev);
}
module_init(hydro_init);
MODULE_LICENSE("GPL");
