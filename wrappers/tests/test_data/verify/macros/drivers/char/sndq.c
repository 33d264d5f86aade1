/*
 * sndq.c: a sound queue whose ioctl reads its argument with IOCTL_IN, a
 * returning macro from the driver's own header.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <asm/uaccess.h>
#include "sndq.h"

static int sq_set_speed(int speed);

static int sq_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int val;

	IOCTL_IN(arg, val);
	return sq_set_speed(val);
}

static struct file_operations sq_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= sq_ioctl,
};
