// options: -D mutex
/*
 * -D mutex: the handler sleeps in wait_event_interruptible() until another
 * ioctl posts; under the private mutex the poster could never get in.
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
	switch (cmd) {
	case BELL_RING:
		bell_rung = 1;
		wake_up_interruptible(&bell_queue);
		return 0;
	case BELL_WAIT:
		if (wait_event_interruptible(bell_queue, bell_rung))
			return -ERESTARTSYS;
		bell_rung = 0;
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations bell_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= bell_ioctl,
};
