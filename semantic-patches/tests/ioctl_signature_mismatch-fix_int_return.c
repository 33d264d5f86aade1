// rule: ioctl_signature_mismatch.cocci
/* Patch mode fixes the one thing with one right answer: the return type. */
#include <linux/fs.h>

static int bell_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static const struct file_operations bell_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= bell_ioctl,
};
