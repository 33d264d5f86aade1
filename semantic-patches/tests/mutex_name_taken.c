// options: -D mutex
/*
 * -D mutex: the file already has a mutex named after it, for its own
 * list, and a variable with the next name: the private mutex gets a name
 * of its own, so it neither redefines nor silently shares either.
 */
int sensor_read();
#include <linux/fs.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(mutex_name_taken_mutex);	/* guards sensor_list */
static int mutex_name_taken_ioctl_mutex;

static int sensor_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return sensor_read(cmd);
}

static struct file_operations sensor_fops = {
	.ioctl		= sensor_ioctl,
};
