// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/* No report: the handler only compares with -ENOIOCTLCMD and translates
 * it; the tty-style ops returning it are not file_operations. */
#include <linux/fs.h>
#include <linux/tty_driver.h>

static long dsp_common_ioctl(unsigned int cmd, unsigned long arg);

static long dsp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret = dsp_common_ioctl(cmd, arg);

	if (ret == -ENOIOCTLCMD)
		return -ENOTTY;
	return ret;
}

static int dsp_tty_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

static const struct tty_operations dsp_tty_ops = {
	.ioctl		= dsp_tty_ioctl,
};

static const struct file_operations dsp_fops = {
	.unlocked_ioctl	= dsp_ioctl,
	.compat_ioctl	= dsp_ioctl,
};
