// options: -D mutex
/*
 * -D mutex: the handler drops and retakes the BKL itself, which a private
 * mutex cannot stand in for (it is not recursive and not released on
 * sleep): the handler is left alone.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/delay.h>

#define TAPE_REWIND	_IO('t', 1)

static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd != TAPE_REWIND)
		return -ENOTTY;
	unlock_kernel();
	msleep(100);
	lock_kernel();
	tape_rewind();
	return 0;
}

static struct file_operations tape_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= tape_ioctl,
};
