/*
 * With the BKL, a handler that sleeps until another ioctl wakes it is
 * converted: the BKL is dropped while its holder sleeps, as it was under
 * the VFS (only the private mutex refuses it).
 */
#include <linux/fs.h>
#include <linux/wait.h>

#define BELL_RING	_IO('b', 1)
#define BELL_WAIT	_IO('b', 2)

static DECLARE_WAIT_QUEUE_HEAD(bell_queue);
static int bell_rung;

static int bell_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd == BELL_RING) {
		bell_rung = 1;
		wake_up_interruptible(&bell_queue);
		return 0;
	}
	if (cmd != BELL_WAIT)
		return -ENOTTY;
	return wait_event_interruptible(bell_queue, bell_rung);
}

static struct file_operations bell_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= bell_ioctl,
};
