/*
 * sly_inode_paste: per-unit open counts of a four-unit board.
 * Shape: the handler names its inode only through token pasting:
 * SLY_PASTED_UNIT(i) of the kbuild-path header inc/slychk.h expands to
 * iminor(inode); the word `inode` appears in neither the body nor the
 * macro's text.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "slychk.h"

#define IP_HIT		_IO('p', 1)
#define IP_HITS		_IO('p', 2)

static int ip_hits[4];

static int ip_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case IP_HIT:
		return ++ip_hits[SLY_PASTED_UNIT(i)];
	case IP_HITS:
		return ip_hits[SLY_PASTED_UNIT(i)];
	}
	return -ENOTTY;
}

static struct file_operations ip_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ip_ioctl,
};

static struct miscdevice ip_misc = {
	.minor	= 7,
	.name	= "sly_inode_paste",
	.fops	= &ip_fops,
};

static int __init ip_init(void)
{
	return misc_register(&ip_misc);
}
module_init(ip_init);
MODULE_LICENSE("GPL");
