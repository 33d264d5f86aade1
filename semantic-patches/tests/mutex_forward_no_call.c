// options: -D mutex
/*
 * -D mutex and uses of a member named ioctl that call no handler of the
 * file: a test of a file's f_op, a comparison with a handler, and a call
 * through the ioctl of a tty_driver the file declares.  None may reach a
 * handler under the private mutex: the handler converts.
 */
#include <linux/fs.h>
#include <linux/tty_driver.h>

static struct tty_driver *nc_driver;

static int nc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (!file->f_op || !file->f_op->ioctl)
		return -ENOTTY;
	if (file->f_op->ioctl != nc_ioctl)
		return -EINVAL;
	if (cmd == 9)
		return nc_driver->ioctl(NULL, file, cmd, arg);
	return 0;
}

static struct file_operations nc_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= nc_ioctl,
};
