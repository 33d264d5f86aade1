// options: -D mutex
/*
 * -D mutex: the wait is in a function the handler calls, two calls deep;
 * the handler is refused all the same, naming where it sleeps.
 */
#include <linux/fs.h>
#include <linux/completion.h>

#define FW_LOAD		_IO('f', 1)
#define FW_DONE		_IO('f', 2)

static DECLARE_COMPLETION(fw_loaded);

static int fw_wait_loaded(void)
{
	return wait_for_completion_interruptible(&fw_loaded);
}

static int fw_start(void)
{
	fw_kick_loader();
	return fw_wait_loaded();
}

static int fw_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FW_LOAD:
		return fw_start();
	case FW_DONE:
		complete(&fw_loaded);
		return 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations fw_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= fw_ioctl,
};
