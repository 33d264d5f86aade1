// rule: f_op_ioctl_forwarding.cocci
// A converted handler whose inode local, made from its file when the
// handler lost its inode parameter, was used only by the call it forwards
// (bench/adversarial adv_forward_ptr, --target 2.6.11 in every strategy).
// Once the call goes through ->unlocked_ioctl the local has no use left
// and gcc warns "unused variable 'inode'" (a compile break under -Werror,
// and a new warning in every build).  The declaration goes with its last
// use; its initializer reads only the file, so nothing else goes with it.
// A local that keeps another use (fp_other_ioctl) stays.
#include <linux/fs.h>
#include <linux/smp_lock.h>

static const struct file_operations *fp_lower;

static long fp_upper_ioctl(struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;
	int ret;

	lock_kernel();
	if (cmd == 1) {
		unlock_kernel();
		return 42;
	}
	if (fp_lower && fp_lower->ioctl) {
		ret = fp_lower->ioctl(inode, file, cmd, arg);
		unlock_kernel();
		return ret;
	}
	unlock_kernel();
	return -ENOTTY;
}

static long fp_other_ioctl(struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;

	if (iminor(inode) == 0)
		return -ENODEV;
	return fp_lower->ioctl(inode, file, cmd, arg);
}

static struct file_operations fp_upper_fops = {
	.unlocked_ioctl = fp_upper_ioctl,
};

static struct file_operations fp_other_fops = {
	.unlocked_ioctl = fp_other_ioctl,
};
