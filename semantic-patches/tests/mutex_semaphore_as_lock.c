// options: -D mutex
/*
 * -D mutex: a semaphore taken and released in the same path is a lock,
 * not a wait for another call: the handler is converted.
 */
#include <linux/fs.h>
#include <linux/semaphore.h>
void reg_write();

#define REG_WRITE	_IO('r', 1)

static DECLARE_MUTEX(reg_sem);

static int reg_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != REG_WRITE)
		return -ENOTTY;
	if (down_interruptible(&reg_sem))
		return -ERESTARTSYS;
	reg_write(arg);
	up(&reg_sem);
	return 0;
}

static struct file_operations reg_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= reg_ioctl,
};
