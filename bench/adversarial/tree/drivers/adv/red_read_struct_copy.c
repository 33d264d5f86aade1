/*
 * red_read_struct_copy: a configuration block updated as a whole.
 * Shape: a declaration initializer that copies a global structure by
 * value (struct rsc_cfg cfg = rsc_cfg;), then the changed copy is stored
 * back (rsc_cfg = cfg;).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define RSC_BUMP	_IO('v', 1)
#define RSC_GEN		_IO('v', 2)

struct rsc_cfg {
	int gen;
	int rate;
};

static struct rsc_cfg rsc_cfg = { 0, 48 };

static int rsc_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct rsc_cfg cfg = rsc_cfg;

	switch (cmd) {
	case RSC_BUMP:
		cfg.gen++;
		cfg.rate = arg & 0xff;
		rsc_cfg = cfg;
		return cfg.gen;
	case RSC_GEN:
		return cfg.gen;
	}
	return -ENOTTY;
}

static struct file_operations rsc_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rsc_ioctl,
};

static struct miscdevice rsc_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_read_struct_copy",
	.fops	= &rsc_fops,
};

static int __init rsc_init(void)
{
	return misc_register(&rsc_misc);
}
module_init(rsc_init);
MODULE_LICENSE("GPL");
