/*
 * A handler defined twice whose #else body writes its inode parameter:
 * that body cannot be converted, so neither is, with the reason in words.
 */
#include <linux/fs.h>
int dial_read(unsigned long arg);
int dial_read_unit(unsigned int unit, unsigned long arg);

#ifdef CONFIG_DIAL_SIMPLE
static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return dial_read(arg);
}
#else
static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (!inode)
		inode = file->f_dentry->d_inode;
	return dial_read_unit(iminor(inode), arg);
}
#endif

static struct file_operations dial_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= dial_ioctl,
};
