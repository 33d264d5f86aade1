// options: -D multi_kernel
/*
 * -D multi_kernel with a fops local to a function: the multi-kernel
 * wrapper would have to go inside that function.  Refused, never half
 * converted.
 */
#include <linux/fs.h>

static int knob_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return knob_turn(cmd, arg);
}

static int knob_register(void)
{
	static struct file_operations knob_fops = {
		.owner		= THIS_MODULE,
		.ioctl		= knob_ioctl,
	};

	return register_chrdev(0, "knob", &knob_fops);
}
