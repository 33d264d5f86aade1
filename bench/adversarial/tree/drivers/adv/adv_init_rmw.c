/*
 * adv_init_rmw: a reservation counter.
 * Shape: a read-modify-write split between a declaration initializer and
 * the body (int users = dev->users; ... dev->users = users + 1;): the BKL
 * made it atomic; moved out of the lock, a racing caller's update is lost.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define RMW_TAKE	_IO('r', 1)
#define RMW_DROP	_IO('r', 2)

struct rmw_dev {
	int users;
	int limit;
};
static struct rmw_dev rmw_dev = { 0, 1000 };

static int rmw_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct rmw_dev *dev = &rmw_dev;
	int users = dev->users;

	switch (cmd) {
	case RMW_TAKE:
		if (users >= dev->limit)
			return -EBUSY;
		dev->users = users + 1;
		return users + 1;
	case RMW_DROP:
		if (!users)
			return -EINVAL;
		dev->users = users - 1;
		return users - 1;
	}
	return -ENOTTY;
}

static struct file_operations rmw_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rmw_ioctl,
};

static struct miscdevice rmw_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_init_rmw",
	.fops	= &rmw_fops,
};

static int __init rmw_init(void)
{
	return misc_register(&rmw_misc);
}
module_init(rmw_init);
MODULE_LICENSE("GPL");
