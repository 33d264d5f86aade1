/*
 * A joystick driver that still builds for 2.4: .ioctl under #if, the GNU
 * ioctl: under #else.  Both entries and the handler change in one run.
 */
#include <linux/fs.h>
#include <linux/version.h>
void joy_reset(void);

static int joy_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != JOY_RESET)
		return -ENOTTY;
	joy_reset();
	return 0;
}

static struct file_operations joy_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)
	.owner		= THIS_MODULE,
	.ioctl		= joy_ioctl,
#else
	owner:		THIS_MODULE,
	ioctl:		joy_ioctl,
#endif
};
