/*
 * sly_duo_aux: the auxiliary node of sly_duo.ko.  Its .ioctl takes the
 * node's own semaphore and passes the command on to the main node's
 * handler (sly_duo_main.c), with the inode it was given.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/semaphore.h>
#include "sly_duo.h"

static DECLARE_MUTEX(duo_aux_sem);

static int duo_aux_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	int ret;

	if (down_interruptible(&duo_aux_sem))
		return -ERESTARTSYS;
	ret = duo_ioctl(inode, file, cmd, arg);
	up(&duo_aux_sem);
	return ret;
}

static struct file_operations duo_aux_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= duo_aux_ioctl,
};

static struct miscdevice duo_aux_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_duo_aux",
	.fops	= &duo_aux_fops,
};

int duo_aux_init(void)
{
	return misc_register(&duo_aux_misc);
}
