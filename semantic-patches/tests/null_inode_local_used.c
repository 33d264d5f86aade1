/*
 * A handler that uses its inode is refused when a caller passes NULL for
 * it through a local set only to NULL, in every spelling (declared NULL,
 * 0, a cast NULL, set by a statement): it may test for NULL, and after
 * conversion it would get the file's inode instead.
 */
#include <linux/fs.h>

static int ua_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return inode ? iminor(inode) : -ENODEV;
}

static int ub_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return inode ? iminor(inode) : -ENODEV;
}

static int uc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return inode ? iminor(inode) : -ENODEV;
}

static int ud_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return inode ? iminor(inode) : -ENODEV;
}

static int u_probe(struct file *file)
{
	struct inode *none = NULL;
	struct inode *zero = 0;
	struct inode *cast = (struct inode *)NULL;
	struct inode *later;

	later = NULL;
	return ua_ioctl(none, file, 1, 0) + ub_ioctl(zero, file, 1, 0) +
		uc_ioctl(cast, file, 1, 0) + ud_ioctl(later, file, 1, 0);
}

static struct file_operations ua_fops = { .ioctl = ua_ioctl, };
static struct file_operations ub_fops = { .ioctl = ub_ioctl, };
static struct file_operations uc_fops = { .ioctl = uc_ioctl, };
static struct file_operations ud_fops = { .ioctl = ud_ioctl, };
