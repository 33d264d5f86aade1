// options: -D mutex
/*
 * -D mutex: a macro of the file is spelled like the default name of the
 * private mutex (an alias of the device's own lock).  A mutex of that name
 * would expand the macro; the private mutex takes the next free name.
 */
int gauge_read();
#include <linux/fs.h>
#include <linux/mutex.h>

static struct gauge {
	struct mutex lock;
	int level;
} gauge;

#define mutex_name_in_macro_mutex	(gauge.lock)

static int gauge_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return gauge_read(cmd);
}

static struct file_operations gauge_fops = {
	.ioctl		= gauge_ioctl,
};
