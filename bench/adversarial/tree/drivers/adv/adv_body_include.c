/*
 * adv_body_include: LEDs whose cases live in a header of the driver.
 * Shape: a file #included inside the handler body (a list of cases that
 * return), as some 2.6 drivers kept generated command tables.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define BI_LED_ON	_IO('b', 1)
#define BI_LED_OFF	_IO('b', 2)
#define BI_LED_GET	_IO('b', 3)

static int bi_leds;

static int bi_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
#include "adv_body_cases.h"
	default:
		break;
	}
	return -ENOTTY;
}

static struct file_operations bi_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= bi_ioctl,
};

static struct miscdevice bi_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_body_include",
	.fops	= &bi_fops,
};

static int __init bi_init(void)
{
	return misc_register(&bi_misc);
}
module_init(bi_init);
MODULE_LICENSE("GPL");
