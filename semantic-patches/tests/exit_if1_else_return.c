/*
 * "#if 1 ... #else ... #endif": the #else branch is never compiled, so
 * its return is no exit (spatch does not see it either), and auto still
 * picks pushdown.
 */
int cap_wait();
#include <linux/fs.h>

static int cap_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != CAP_WAIT)
		return -ENOTTY;
#if 1
	if (cap_wait(arg))
		return -EINTR;
#else
	if (wait_event_interruptible(cap_queue, cap_done(arg))
	    == -ERESTARTSYS)
		return -EINTR;
#endif
	return 0;
}

static struct file_operations cap_fops = {
	.ioctl		= cap_ioctl,
};
