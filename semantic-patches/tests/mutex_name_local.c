// options: -D mutex
/*
 * A local has the default name of the file's private mutex: the mutex
 * takes a name nothing in the file uses (mutex_name_local_ioctl_mutex),
 * so no local hides it and auto pushes the lock down.
 */
#include <linux/fs.h>
#include <linux/mutex.h>
void ml_set();

static int ml_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct mutex *mutex_name_local_mutex = &ml_dev.lock;

	if (cmd != ML_SET)
		return -ENOTTY;
	mutex_lock(mutex_name_local_mutex);
	ml_set(arg);
	mutex_unlock(mutex_name_local_mutex);
	return 0;
}

static struct file_operations ml_fops = {
	.ioctl		= ml_ioctl,
};
