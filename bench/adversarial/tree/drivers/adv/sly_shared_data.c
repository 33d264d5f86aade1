/*
 * sly_shared_data: the data node of sly_shared.ko.  Its file_operations
 * name the handler of the other file (sly_shared_ctl.c) through the
 * prototype of sly_shared.h, and its node has a semaphore of its own.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "sly_shared.h"

static struct sh_node sh_data_node;

static int sh_data_open(struct inode *inode, struct file *file)
{
	file->private_data = &sh_data_node;
	return 0;
}

static struct file_operations sh_data_fops = {
	.owner	= THIS_MODULE,
	.open	= sh_data_open,
	.ioctl	= sh_ioctl,
};

static struct miscdevice sh_data_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_shared_data",
	.fops	= &sh_data_fops,
};

int sh_data_init(void)
{
	sema_init(&sh_data_node.sem, 1);
	return misc_register(&sh_data_misc);
}
