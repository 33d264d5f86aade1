// rule: f_op_ioctl_forwarding.cocci
// options: -D legacy_ioctl
// No include directive outside an #if to add <linux/smp_lock.h> after: the
// helper would not compile, so the call is refused.
#ifdef __KERNEL__
#include <linux/fs.h>
#endif

static int up_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return lower->f_op->ioctl(file_inode(lower), lower, cmd, arg);
}
