// options: -D mutex
/*
 * -D mutex: an open-coded wait (set_current_state(), schedule()) until
 * another ioctl sets the flag and wakes the task.
 */
#include <linux/fs.h>
#include <linux/sched.h>

#define PIPE_FILL	_IO('p', 1)
#define PIPE_DRAIN	_IO('p', 2)

static struct task_struct *pipe_sleeper;
static int pipe_full;

static int pipe_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd == PIPE_FILL) {
		pipe_full = 1;
		if (pipe_sleeper)
			wake_up_process(pipe_sleeper);
		return 0;
	}
	if (cmd != PIPE_DRAIN)
		return -ENOTTY;
	pipe_sleeper = current;
	while (!pipe_full) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!pipe_full)
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	pipe_full = 0;
	return 0;
}

static struct file_operations pipe_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= pipe_ioctl,
};
