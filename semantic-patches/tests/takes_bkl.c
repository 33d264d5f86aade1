/*
 * The handler drops and retakes the BKL around a sleep.  The VFS held it
 * on entry, so pushdown keeps that; the inner calls still pair up because
 * the BKL is recursive and released on sleep.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/delay.h>
void tape_rewind();

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
