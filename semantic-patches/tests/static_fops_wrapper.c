// options: -D wrapper
/*
 * The fops is a static local of the function that registers it: the
 * wrapper goes at file scope, before that function, never inside it.
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
