// variant wrapper: -D wrapper
/*
 * A 2.6-era ioctl32 conversion helper checks that the file is the
 * driver's before it trusts the argument.  The comparison follows the
 * entry to .unlocked_ioctl, and the call loses its inode argument; under
 * the wrapper strategy it would compare with the wrapper.
 */
int cam_copy_frame();
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/ioctl32.h>

#define CAM_GET_FRAME	_IOR('c', 1, struct cam_frame)

static int cam_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != CAM_GET_FRAME)
		return -ENOTTY;
	return cam_copy_frame((void __user *)arg);
}

static struct file_operations cam_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cam_ioctl,
};

static int handle_cam_get_frame(unsigned int fd, unsigned int cmd,
				unsigned long arg, struct file *file)
{
	int ret;

	if (file->f_op->ioctl != cam_ioctl)
		return -EFAULT;
	lock_kernel();
	ret = cam_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
