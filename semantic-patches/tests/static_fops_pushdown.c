/*
 * A fops that is a static local of a function, with pushdown: the entry
 * inside the function is switched like any other.
 */
int knob_turn();
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
