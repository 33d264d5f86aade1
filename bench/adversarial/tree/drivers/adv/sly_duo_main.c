/*
 * sly_duo_main: the main node of sly_duo.ko, whose .ioctl is the handler
 * both nodes share.
 * Shape: duo_ioctl is this file's .ioctl and is also called by the other
 * file's .ioctl (sly_duo_aux.c), which holds a semaphore of its own around
 * the call; the count it keeps is guarded by the BKL alone, read in an
 * initializer and written after a sleep.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/delay.h>
#include "sly_duo.h"

int duo_posted;

int duo_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	int seen = duo_posted;

	switch (cmd) {
	case DUO_POST:
		msleep(1);
		duo_posted = seen + 1;
		return duo_posted;
	case DUO_COUNT:
		return seen;
	}
	return -ENOTTY;
}

static struct file_operations duo_main_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= duo_ioctl,
};

static struct miscdevice duo_main_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_duo_main",
	.fops	= &duo_main_fops,
};

int duo_main_init(void)
{
	return misc_register(&duo_main_misc);
}
