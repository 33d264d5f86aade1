// rule: add_compat_ioctl.cocci
// options: -D compat_ptr_ioctl -D compat_ptr=cfg_fops
/*
 * A target >= 5.5 has compat_ptr_ioctl(): a pointer-only handler needs
 * no entry of its own, and no <linux/compat.h>.
 */
#include <linux/fs.h>

static const struct file_operations cfg_fops = {
	.unlocked_ioctl	= cfg_ioctl,
};
