// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/* Unknown commands answered with the kernel-internal -ENOIOCTLCMD, once
 * directly and once through the variable that is returned. */
#include <linux/fs.h>

static long fan_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return 0;
	default:
		return -ENOIOCTLCMD;
	}
}

static long led_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	if (cmd == 1)
		ret = 0;
	else
		ret = -ENOIOCTLCMD;
	return ret;
}

static const struct file_operations fan_fops = {
	.unlocked_ioctl	= fan_ioctl,
	.compat_ioctl	= fan_ioctl,
};

static const struct file_operations led_fops = {
	.unlocked_ioctl	= led_ioctl,
	.compat_ioctl	= led_ioctl,
};
