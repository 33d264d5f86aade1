/*
 * A file_operations filled in at run time: "fops.ioctl = h;" and
 * "ops->ioctl = h;" are entries like an initializer's, and become
 * .unlocked_ioctl once the handler is converted.
 */
int relay_control();
#include <linux/fs.h>

static struct file_operations relay_fops;

static int relay_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return relay_control(cmd, arg);
}

static int __init relay_init(void)
{
	struct file_operations *ops = &relay_fops;

	relay_fops.owner = THIS_MODULE;
	relay_fops.ioctl = relay_ioctl;
	ops->ioctl = relay_ioctl;
	return register_chrdev(RELAY_MAJOR, "relay", &relay_fops);
}
