/*
 * adv_private_mutex: a driver that already has a mutex of its own, taken
 * inside the handler, with exits through a label.
 * Shape: mutex_lock/mutex_unlock of the driver beside the BKL; a
 * returning path before the mutex is taken.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define PM_XFER		_IOWR('Q', 1, int)
#define PM_PORT		0x3e0

static DEFINE_MUTEX(pm_lock);
static int pm_xfers;

static int pm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int v, ret;

	if (cmd != PM_XFER)
		return -ENOTTY;
	if (get_user(v, (int __user *)arg))
		return -EFAULT;
	mutex_lock(&pm_lock);
	if (v < 0) {
		ret = -EINVAL;
		goto unlock;
	}
	outb(v, PM_PORT);
	v = inb(PM_PORT + 1);
	pm_xfers++;
	ret = put_user(v + pm_xfers, (int __user *)arg);
unlock:
	mutex_unlock(&pm_lock);
	return ret;
}

static struct file_operations pm_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= pm_ioctl,
};

static struct miscdevice pm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_private_mutex",
	.fops	= &pm_fops,
};

static int __init pm_init(void)
{
	return misc_register(&pm_misc);
}
module_init(pm_init);
MODULE_LICENSE("GPL");
