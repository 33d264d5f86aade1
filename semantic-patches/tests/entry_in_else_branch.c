/*
 * One initializer with ".ioctl = h" under #if and "ioctl: h" under #else
 * (a driver that still builds before 2.6.16: 2.6.11 to 2.6.15 compile the
 * #else, and have .unlocked_ioctl too).  spatch reads one branch only;
 * converting the handler for it would leave the other naming a function
 * whose signature changed.  Both entries are reported, and the handler is
 * left alone in the same run, so a second run finds the same and nothing
 * new.
 */
#include <linux/fs.h>
#include <linux/version.h>

static int joy_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations joy_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,16)
	.owner		= THIS_MODULE,
	.ioctl		= joy_ioctl,
#else
	owner:		THIS_MODULE,
	ioctl:		joy_ioctl,
#endif
};
