// rule: add_compat_ioctl.cocci
// options: -D compat_ptr=ctl_fops,status_fops
/*
 * Two fops share one handler: its compat_ptr() entry is written once,
 * before the first fops, and both fops name it.
 */
#include <linux/fs.h>

static const struct file_operations ctl_fops = {
	.unlocked_ioctl	= twin_ioctl,
};

static const struct file_operations status_fops = {
	.unlocked_ioctl	= twin_ioctl,
};
