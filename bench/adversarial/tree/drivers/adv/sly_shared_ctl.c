/*
 * sly_shared_ctl: the control node of sly_shared.ko, and the handler both
 * nodes share.
 * Shape: one .ioctl handler (sh_ioctl) is the entry of two file_operations
 * in two files; each node's open points private_data at a node of its own
 * with its own semaphore, so the handler takes a different lock for each
 * node.  The module-wide total is kept by the BKL alone: it is read
 * before the node's semaphore is taken and written after it is given back.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "sly_shared.h"

static int sh_total;
static struct sh_node sh_ctl_node;

int sh_ioctl(struct inode *inode, struct file *file,
	     unsigned int cmd, unsigned long arg)
{
	struct sh_node *node = file->private_data;
	int total = sh_total;

	switch (cmd) {
	case SH_TAKE:
		down(&node->sem);
		node->taken++;
		up(&node->sem);
		sh_total = total + 1;
		return sh_total;
	case SH_TOTAL:
		return total;
	}
	return -ENOTTY;
}

static int sh_ctl_open(struct inode *inode, struct file *file)
{
	file->private_data = &sh_ctl_node;
	return 0;
}

static struct file_operations sh_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= sh_ctl_open,
	.ioctl	= sh_ioctl,
};

static struct miscdevice sh_ctl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_shared_ctl",
	.fops	= &sh_ctl_fops,
};

extern int sh_data_init(void);

static int __init sh_init(void)
{
	sema_init(&sh_ctl_node.sem, 1);
	if (misc_register(&sh_ctl_misc))
		return -EBUSY;
	return sh_data_init();
}
module_init(sh_init);
MODULE_LICENSE("GPL");
