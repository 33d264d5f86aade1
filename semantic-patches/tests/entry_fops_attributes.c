/*
 * fops declared with attributes, between the name and "=" or before the
 * type, as 2.6 drivers did (__pmacdata, __initdata, __attribute__,
 * ____cacheline_aligned): each is a file_operations, and each entry
 * follows its converted handler.
 */
#include <linux/fs.h>
#include <linux/init.h>

static int pmu_ioctl(struct inode *inode, struct file *filp,
		     unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

static int rtc_ioctl(struct inode *inode, struct file *filp,
		     unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

static int led_ioctl(struct inode *inode, struct file *filp,
		     unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

static int fan_ioctl(struct inode *inode, struct file *filp,
		     unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

static struct file_operations pmu_device_fops __pmacdata = {
	.ioctl		= pmu_ioctl,
};

static struct file_operations rtc_fops __attribute__((unused)) = {
	.ioctl		= rtc_ioctl,
};

static struct file_operations led_fops[] __initdata = {
	{ .ioctl = led_ioctl, },
};

static __devinitdata struct file_operations fan_fops = {
	.ioctl		= fan_ioctl,
};
