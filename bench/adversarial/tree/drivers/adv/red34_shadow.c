/*
 * red34_shadow: a two-unit controller whose handler reuses its parameter
 * names.
 * Shape: the inode parameter is assigned at the top
 * (inode = file->f_dentry->d_inode;), and an inner block declares its own
 * "struct inode *inode" and "unsigned long arg" that shadow the
 * parameters.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define SH_UNIT		_IO('u', 0x51)
#define SH_SUM		_IO('u', 0x52)

static int sh_sums[2];

static int sh_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	inode = file->f_dentry->d_inode;
	if (cmd == SH_UNIT)
		return iminor(inode) & 1;
	if (cmd == SH_SUM) {
		struct inode *inode = file->f_dentry->d_inode;
		unsigned long arg = 1;

		sh_sums[iminor(inode) & 1] += arg;
		return sh_sums[iminor(inode) & 1];
	}
	return -ENOTTY;
}

static struct file_operations sh_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sh_ioctl,
};

static struct miscdevice sh_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_shadow",
	.fops	= &sh_fops,
};

static int __init sh_init(void)
{
	return misc_register(&sh_misc);
}
module_init(sh_init);
MODULE_LICENSE("GPL");
