/*
 * Three branches (#if, #elif, #else): two runs cannot read them all, so
 * the entries are refused in words and the file is left as it is.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int pad_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return pad_command(cmd, arg);
}

static struct file_operations pad_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)
	.ioctl		= pad_ioctl,
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(2,4,0)
	ioctl:		pad_ioctl,
#else
	NULL, NULL, NULL, NULL, NULL, NULL, NULL, pad_ioctl,
#endif
};
