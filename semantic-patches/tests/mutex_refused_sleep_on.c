// options: -D mutex
/*
 * -D mutex: interruptible_sleep_on() waits for another ioctl's wake_up();
 * the handler is left alone, not converted to a mutex that would deadlock.
 */
#include <linux/fs.h>
#include <linux/sched.h>

#define DOOR_OPEN	_IO('d', 1)
#define DOOR_AWAIT	_IO('d', 2)

static wait_queue_head_t door_queue;

static int door_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd == DOOR_OPEN) {
		wake_up_interruptible(&door_queue);
		return 0;
	}
	if (cmd != DOOR_AWAIT)
		return -ENOTTY;
	interruptible_sleep_on(&door_queue);
	return signal_pending(current) ? -EINTR : 0;
}

static struct file_operations door_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= door_ioctl,
};
