/*
 * A file_operations embedded in a driver structure, initialized in place:
 * the shape of every drm driver of 2.6.32 (struct drm_driver's .fops).
 */
#include <linux/fs.h>
#include <linux/module.h>
#include "drm_like.h"

/* A structure of this file that embeds one, too. */
struct emb_chip {
	int id;
	struct file_operations fops;
};

static int emb_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static int chip_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return cmd == DEV_RESET ? 0 : -ENOTTY;
}

static int far_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct drm_driver emb_driver = {
	.driver_features = 0,
	.fops = {
		.owner = THIS_MODULE,
		.open = emb_open,
		.ioctl = emb_ioctl,	/* entry */
		.release = emb_release,
	},
	.name = "emb",
};

static struct emb_chip chip = {
	.id = 1,
	.fops = {
		.owner = THIS_MODULE,
		.ioctl = &chip_ioctl,	/* entry */
	},
};

/* A structure the file does not declare: it may hold a file_operations. */
static struct far_driver far = {
	.name = "far",
	.fops = { .owner = THIS_MODULE, .ioctl = far_ioctl, },	/* entry */
};
