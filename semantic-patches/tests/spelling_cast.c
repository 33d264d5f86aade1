// options: -D wrapper
/*
 * A cast such as "(void *)h" hid the handler's type from the compiler; the
 * new entry names the wrapper, whose type is exactly .unlocked_ioctl's,
 * without a cast that could hide a mismatch again.
 */
#include <linux/fs.h>

static int knob_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return knob_set(cmd, arg);
}

static struct file_operations knob_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= (void *)knob_ioctl,
};
