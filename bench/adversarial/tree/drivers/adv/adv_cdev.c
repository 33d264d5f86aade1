/*
 * adv_cdev: four channels on one cdev; open finds the device.
 * Shape: cdev registration, iminor(inode) in a declaration initializer,
 * file->private_data, a goto to a single exit.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>
#include <asm/uaccess.h>

#define ADV_CDEV_NR	4
#define ADV_CDEV_GAIN	_IOW('c', 1, int)
#define ADV_CDEV_READ	_IOR('c', 2, int)

struct adv_cdev_chan {
	int gain;
	int samples;
};

static struct adv_cdev_chan chans[ADV_CDEV_NR];
static struct cdev adv_cdev;
static dev_t adv_cdev_dev;

static int adv_cdev_open(struct inode *inode, struct file *file)
{
	file->private_data = &chans[iminor(inode) % ADV_CDEV_NR];
	return 0;
}

static int adv_cdev_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	struct adv_cdev_chan *ch = file->private_data;
	unsigned int minor = iminor(inode);
	int ret = 0, v;

	switch (cmd) {
	case ADV_CDEV_GAIN:
		if (get_user(v, (int __user *)arg)) {
			ret = -EFAULT;
			goto out;
		}
		ch->gain = v + minor;
		break;
	case ADV_CDEV_READ:
		ch->samples++;
		ret = put_user(ch->samples * ch->gain, (int __user *)arg);
		break;
	default:
		ret = -ENOTTY;
	}
out:
	return ret;
}

static struct file_operations adv_cdev_fops = {
	.owner	= THIS_MODULE,
	.open	= adv_cdev_open,
	.ioctl	= adv_cdev_ioctl,
};

static int __init adv_cdev_init(void)
{
	int err = alloc_chrdev_region(&adv_cdev_dev, 0, ADV_CDEV_NR, "adv_cdev");

	if (err)
		return err;
	cdev_init(&adv_cdev, &adv_cdev_fops);
	adv_cdev.owner = THIS_MODULE;
	return cdev_add(&adv_cdev, adv_cdev_dev, ADV_CDEV_NR);
}

module_init(adv_cdev_init);
MODULE_LICENSE("GPL");
