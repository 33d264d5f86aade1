/*
 * adv_init_private: the common safe prologue: the device from
 * file->private_data, the unit from the inode, a user pointer from arg.
 * Shape: declaration initializers that read only the parameters and
 * file->private_data, then shared state read in the body.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>

#define IP_STATS	_IOR('p', 0x60, int)
#define IP_HIT		_IO('p', 0x61)

struct ip_dev {
	int hits;
};
static struct ip_dev ip_dev;

static int ip_open(struct inode *inode, struct file *file)
{
	file->private_data = &ip_dev;
	return 0;
}

static int ip_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct ip_dev *dev = file->private_data;
	int unit = iminor(inode) & 3;
	int __user *uarg = (int __user *)arg;

	switch (cmd) {
	case IP_STATS:
		return put_user(dev->hits * 4 + unit, uarg);
	case IP_HIT:
		dev->hits++;
		return dev->hits;
	}
	return -ENOTTY;
}

static struct file_operations ip_fops = {
	.owner	= THIS_MODULE,
	.open	= ip_open,
	.ioctl	= ip_ioctl,
};

static struct miscdevice ip_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_init_private",
	.fops	= &ip_fops,
};

static int __init ip_init(void)
{
	return misc_register(&ip_misc);
}
module_init(ip_init);
MODULE_LICENSE("GPL");
