// rule: ioctl_signature_mismatch.cocci
/* The parameters fit .compat_ioctl; the int return does not. */
#include <linux/fs.h>

static long dial_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int dial_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	return dial_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}

static const struct file_operations dial_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= dial_ioctl,
	.compat_ioctl	= dial_compat_ioctl,
};
