// rule: f_op_ioctl_forwarding.cocci
// options: -D legacy_ioctl
// The file already includes <linux/smp_lock.h> (its own handler takes the
// BKL): no second one.  Its only other include is quoted.  The call is
// an initializer.
#include "stack.h"
#include <linux/smp_lock.h>

static int up_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int ret = lower->f_op->ioctl(file_inode(lower), lower, cmd, arg);

	return ret;
}
