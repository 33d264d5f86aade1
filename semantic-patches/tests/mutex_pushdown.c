// options: -D mutex
/*
 * -D mutex, for kernels without a BKL: a private mutex named after the
 * file takes its place, as in 2.6.36's "autoconvert trivial BKL users".
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
void led_update();

#define LED_SET		_IOW('L', 1, int)

static int led_state;

static int led_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != LED_SET)
		return -ENOTTY;
	led_state = (int)arg;
	led_update(led_state);
	return 0;
}

static struct file_operations led_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= led_ioctl,
};
