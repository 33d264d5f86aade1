/*
 * scale: the port is SCALE_PORT() of scale_a.h, which names SCALE_UNIT()
 * of scale_b.h, which names the inode.
 */
#include <linux/fs.h>
#include "scale_a.h"
int scale_out(int port, unsigned long arg);

static int scale_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return scale_out(SCALE_PORT(), arg);
}

static struct file_operations scale_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= scale_ioctl,
};
