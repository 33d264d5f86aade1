// options: -D mutex
/*
 * -D mutex: down() comes before up() in the text, but in another branch:
 * the up() signals the down(), it does not release it.  Refused.
 */
#include <linux/fs.h>
#include <linux/semaphore.h>

#define JOB_WAIT	_IO('j', 1)
#define JOB_DONE	_IO('j', 2)

static struct semaphore job_done;

static int job_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd == JOB_WAIT) {
		down(&job_done);
		return 0;
	}
	if (cmd == JOB_DONE) {
		up(&job_done);
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations job_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= job_ioctl,
};
