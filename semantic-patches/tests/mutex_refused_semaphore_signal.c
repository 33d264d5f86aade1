// options: -D mutex
/*
 * -D mutex: a semaphore used as a signal: one ioctl downs it, another ups
 * it without downing it first.  The downer would hold the mutex the upper
 * needs.
 */
#include <linux/fs.h>
#include <linux/semaphore.h>

#define SCAN_START	_IO('s', 1)
#define SCAN_RESULT	_IO('s', 2)

struct scanner {
	struct semaphore done;
	int result;
};

static struct scanner the_scanner;

static int scan_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct scanner *sc = &the_scanner;

	switch (cmd) {
	case SCAN_START:
		sc->result = scan_hardware();
		up(&sc->done);
		return 0;
	case SCAN_RESULT:
		if (down_interruptible(&sc->done))
			return -ERESTARTSYS;
		return sc->result;
	default:
		return -ENOTTY;
	}
}

static struct file_operations scan_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= scan_ioctl,
};
