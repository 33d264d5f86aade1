// options: -D mutex
/*
 * The same latent bug with -D mutex: the private mutex is defined before
 * the function the wrapper calls, since no legacy handler is converted.
 */
#include <linux/fs.h>

static long meter_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	return meter_read(file, cmd, arg);
}

static struct file_operations meter_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= meter_ioctl,
};
