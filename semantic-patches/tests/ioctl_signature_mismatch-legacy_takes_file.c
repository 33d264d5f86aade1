// rule: ioctl_signature_mismatch.cocci
/* An unlocked-style handler assigned to the legacy member by mistake. */
#include <linux/fs.h>

static long knob_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 0:
		return 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations knob_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= knob_ioctl,
};
