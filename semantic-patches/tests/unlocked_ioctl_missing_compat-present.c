// rule: unlocked_ioctl_missing_compat.cocci
/* Three fops that each made a choice about 32-bit callers: no report. */
#include <linux/fs.h>
#include <linux/compat.h>

static long rtc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static const struct file_operations rtc_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= rtc_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static const struct file_operations rtc_same_abi_fops = {
	.compat_ioctl	= rtc_ioctl,
	.unlocked_ioctl	= rtc_ioctl,
};

/* 64-bit only hardware: the driver says so explicitly. */
static const struct file_operations rtc_native_fops = {
	.unlocked_ioctl	= rtc_ioctl,
	.compat_ioctl	= NULL,
};
