// rule: f_op_ioctl_forwarding.cocci
// options: -D legacy_ioctl
// The helper goes before the first function that calls through the member:
// here that function is inside an #ifdef, where the helper would be left
// out of the other caller's build.  Every call of the file is refused (the
// wrappers then deny the run), none is rewritten.
#include <linux/fs.h>

#ifdef CONFIG_STACK_DEBUG
static int debug_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return lower->f_op->ioctl(file_inode(lower), lower, cmd, arg);
}
#endif

static int up_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	if (!lower->f_op->ioctl)
		return -ENOTTY;
	return lower->f_op->ioctl(file_inode(lower), lower, cmd, arg);
}
