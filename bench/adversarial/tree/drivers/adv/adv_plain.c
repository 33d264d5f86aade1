/*
 * adv_plain: a misc device with a value and a counter.
 * Shape: the plainest legacy handler (switch, get_user/put_user, -ENOTTY).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>

#define ADV_PLAIN_GET	_IOR('p', 1, int)
#define ADV_PLAIN_SET	_IOW('p', 2, int)
#define ADV_PLAIN_BUMP	_IO('p', 3)

static int adv_plain_value;
static int adv_plain_bumps;

static int adv_plain_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	int __user *p = (int __user *)arg;
	int v;

	switch (cmd) {
	case ADV_PLAIN_GET:
		return put_user(adv_plain_value, p);
	case ADV_PLAIN_SET:
		if (get_user(v, p))
			return -EFAULT;
		adv_plain_value = v;
		return 0;
	case ADV_PLAIN_BUMP:
		adv_plain_bumps++;
		return adv_plain_bumps;
	default:
		return -ENOTTY;
	}
}

static struct file_operations adv_plain_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= adv_plain_ioctl,
};

static struct miscdevice adv_plain_dev = {
	MISC_DYNAMIC_MINOR,
	"adv_plain",
	&adv_plain_fops
};

static int __init adv_plain_init(void)
{
	return misc_register(&adv_plain_dev);
}

static void __exit adv_plain_exit(void)
{
	misc_deregister(&adv_plain_dev);
}

module_init(adv_plain_init);
module_exit(adv_plain_exit);
MODULE_LICENSE("GPL");
