// rule: add_compat_ioctl.cocci
// options: -D same_handler=led_fops -D compat_ptr=cfg_fops
/*
 * Negative: a fops that already sets .compat_ioctl (NULL included, a
 * stated choice) is never touched, whatever its class; without
 * <linux/fs.h> there is no place for <linux/compat.h>, so a compat_ptr()
 * entry is not written either.
 */
#include <linux/miscdevice.h>

static const struct file_operations led_fops = {
	.unlocked_ioctl	= led_ioctl,
	.compat_ioctl	= NULL,
};

static const struct file_operations cfg_fops = {
	.unlocked_ioctl	= cfg_ioctl,
};
