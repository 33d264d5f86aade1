/*
 * adv_stack_lower: the lower half of a stacked module (adv_stack.ko):
 * a counter device the upper half reaches through a file's f_op.
 * Shape: two-file module; the lower fops is legacy and exported to the
 * upper file by a shared header.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "adv_stack.h"

static int stack_count;

static int stack_lower_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case STACK_INC:
		return ++stack_count;
	case STACK_GET:
		return stack_count;
	}
	return -ENOTTY;
}

struct file_operations stack_lower_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= stack_lower_ioctl,
};
