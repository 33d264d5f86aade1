/*
 * adv_comment_data: a bus driver with per-client callbacks.
 * Shape: ".ioctl = old_handler," inside a comment, and a member named
 * ioctl of a structure that is not a file_operations, assigned at run
 * time (dev->ioctl = fn;); one real legacy entry.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define CD_CALL		_IO('K', 1)

struct cd_client {
	int (*ioctl)(struct cd_client *, unsigned int);
	int calls;
};

static int cd_client_ioctl(struct cd_client *c, unsigned int cmd)
{
	return ++c->calls;
}

static struct cd_client cd_client;

static int cd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != CD_CALL)
		return -ENOTTY;
	return cd_client.ioctl ? cd_client.ioctl(&cd_client, cmd) : -ENODEV;
}

static struct file_operations cd_fops = {
	.owner	= THIS_MODULE,
	/* .ioctl = cd_old_ioctl, was the 2.4 entry */
	.ioctl	= cd_ioctl,
};

static struct miscdevice cd_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_comment_data",
	.fops	= &cd_fops,
};

static int __init cd_init(void)
{
	struct cd_client *dev = &cd_client;

	dev->ioctl = cd_client_ioctl;
	return misc_register(&cd_misc);
}
module_init(cd_init);
MODULE_LICENSE("GPL");
