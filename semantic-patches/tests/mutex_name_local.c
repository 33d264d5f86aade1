// options: -D mutex
// mode: report
/*
 * A local has the name of the file's private mutex: a pushed-down
 * "mutex_lock(&mutex_name_local_mutex);" would lock the local.  Auto
 * picks the wrapper, outside the local's scope.
 */
#include <linux/fs.h>
#include <linux/mutex.h>

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
