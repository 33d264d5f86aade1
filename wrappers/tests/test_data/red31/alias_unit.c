/*
 * meter: MINOR_OF is another name of RAW_MINOR, which names the inode.
 */
#include <linux/fs.h>
int meter_set(int unit, unsigned long arg);

#define RAW_MINOR(off)	(iminor(inode) + (off))
#define MINOR_OF	RAW_MINOR

static int meter_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return meter_set(MINOR_OF(1), arg);
}

static struct file_operations meter_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= meter_ioctl,
};
