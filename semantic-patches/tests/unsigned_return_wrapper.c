// options: -D wrapper
/*
 * The wrapper keeps the body, but the handler now returns long: an
 * unsigned status holding -EIO would reach 64-bit callers as 4294967291.
 * It is returned as (int)status, what the legacy int handler returned.
 */
#include <linux/fs.h>

static int adc_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	u32 status = 0;

	if (cmd != ADC_START)
		status = -ENOTTY;
	else if (adc_start(arg))
		status = -EIO;
	return status;
}

static struct file_operations adc_fops = {
	.ioctl		= adc_ioctl,
};
