// rule: ioctl_signature_mismatch.cocci
/*
 * Negative case for patch mode: a whole legacy signature behind
 * .unlocked_ioctl needs the conversion rule, not a new return type.
 */
#include <linux/fs.h>

static int horn_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static const struct file_operations horn_fops = {
	.unlocked_ioctl	= horn_ioctl,
};
