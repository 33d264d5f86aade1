// options: -D inode_f_dentry
/*
 * An exported handler: EXPORT_SYMBOL() and EXPORT_SYMBOL_GPL() name it
 * without calling it, so they are no use with the old signature; the
 * handler converts, and the exports stay as they are (convert rewrites the
 * callers of other files with it).
 */
#include <linux/fs.h>
#include <linux/module.h>

int core_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
	       unsigned long arg)
{
	return cmd == CORE_RESET ? 0 : -ENOTTY;
}
EXPORT_SYMBOL(core_ioctl);

int core_gpl_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
		   unsigned long arg)
{
	return -ENOTTY;
}
EXPORT_SYMBOL_GPL(core_gpl_ioctl);

static struct file_operations core_fops = {
	.ioctl		= core_ioctl,
};

static struct file_operations core_gpl_fops = {
	.ioctl		= core_gpl_ioctl,
};
