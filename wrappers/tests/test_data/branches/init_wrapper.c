/*
 * A modem driver whose handler returns through a macro: auto picks the
 * wrapper, and both branches' entries name it.
 */
#include <linux/fs.h>
#include <linux/version.h>

#define NEED_ADMIN if (!capable(CAP_SYS_ADMIN)) return -EPERM

static int modem_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	NEED_ADMIN;
	return modem_command(cmd, arg);
}

static struct file_operations modem_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)
	.owner		= THIS_MODULE,
	.ioctl		= modem_ioctl,
#else
	owner:		THIS_MODULE,
	ioctl:		modem_ioctl,
#endif
};
