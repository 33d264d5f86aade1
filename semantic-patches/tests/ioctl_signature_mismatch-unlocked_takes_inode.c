// rule: ioctl_signature_mismatch.cocci
/* A handler moved to .unlocked_ioctl without losing its inode parameter. */
#include <linux/fs.h>

static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return iminor(inode) == cmd ? 0 : -ENOTTY;
}

static const struct file_operations lamp_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lamp_ioctl,
};
