/*
 * red34_regparm: a counter whose handler was written by someone fond of
 * qualifiers.
 * Shape: the legacy handler's parameters carry register and const
 * (register struct inode *const inode, const unsigned int cmd, ...), and
 * the inode is used (its minor picks the counter); a second handler of the
 * file is a K&R definition whose parameter declarations are in another
 * order than its names and carry register.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define RP_GET		_IO('p', 0x91)
#define RP_BUMP		_IO('p', 0x92)

static int rp_counts[4];

static int rp_ioctl(register struct inode *const inode,
		    struct file *const file, const unsigned int cmd,
		    register unsigned long arg)
{
	const int unit = iminor(inode) & 3;

	switch (cmd) {
	case RP_GET:
		return rp_counts[unit];
	case RP_BUMP:
		rp_counts[unit] += arg;
		return rp_counts[unit];
	}
	return -ENOTTY;
}

static int rp_alt_ioctl(inode, file, cmd, arg)
	unsigned long arg;
	register struct file *file;
	struct inode *inode;
	register unsigned int cmd;
{
	if (cmd != RP_GET)
		return -ENOTTY;
	return rp_counts[0] * 2 + (int)arg;
}

static struct file_operations rp_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rp_ioctl,
};

static struct file_operations rp_alt_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rp_alt_ioctl,
};

static struct miscdevice rp_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_regparm",
	.fops	= &rp_fops,
};

static struct miscdevice rp_alt_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_regparm_alt",
	.fops	= &rp_alt_fops,
};

static int __init rp_init(void)
{
	int ret = misc_register(&rp_misc);

	if (ret)
		return ret;
	return misc_register(&rp_alt_misc);
}
module_init(rp_init);
MODULE_LICENSE("GPL");
