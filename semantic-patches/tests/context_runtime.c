/*
 * Context mode marks a .ioctl entry set at run time as it marks one of an
 * initializer: "fops.ioctl = h;" on a file_operations variable and
 * "ops->ioctl = h;" through a pointer to one.  The .release set beside
 * them, and the .ioctl of another operations structure, are not marked.
 * The handler's address and a cast of it are entries too.
 */
#include <linux/fs.h>
#include <linux/tty.h>
int relay_control();

static struct file_operations relay_fops;
static struct file_operations relay_debug_fops;
static struct file_operations relay_raw_fops;
typedef int (*relay_ioctl_t)(struct inode *, struct file *, unsigned int, unsigned long);
static struct tty_operations relay_tty_ops;

static int relay_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return relay_control(cmd, arg);
}

static int __init relay_init(void)
{
	struct file_operations *ops = &relay_debug_fops;

	relay_fops.owner = THIS_MODULE;
	relay_fops.ioctl = relay_ioctl;
	relay_fops.release = relay_release;
	ops->ioctl = relay_ioctl;
	relay_raw_fops.ioctl = (relay_ioctl_t)relay_ioctl;
	ops->ioctl = &relay_ioctl;
	relay_tty_ops.ioctl = relay_tty_ioctl;
	return register_chrdev(RELAY_MAJOR, "relay", &relay_fops);
}
