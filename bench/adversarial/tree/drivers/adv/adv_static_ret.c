/*
 * adv_static_ret: a driver that keeps its last result in a static local.
 * Shape: "static int ret;" inside the handler, returned on every path.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define SR_ADD	_IO('s', 0x10)
#define SR_LAST	_IO('s', 0x11)

static int sr_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	static int ret;

	switch (cmd) {
	case SR_ADD:
		ret += (int)(arg & 0xf);
		break;
	case SR_LAST:
		break;
	default:
		return -ENOTTY;
	}
	return ret;
}

static struct file_operations sr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sr_ioctl,
};

static struct miscdevice sr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_static_ret",
	.fops	= &sr_fops,
};

static int __init sr_init(void)
{
	return misc_register(&sr_misc);
}
module_init(sr_init);
MODULE_LICENSE("GPL");
