// options: -D mutex
/*
 * -D mutex: <linux/mutex.h> is included only under an #ifdef the handler
 * is not in.  It is added after the last #include every configuration
 * compiles.
 */
#include <linux/fs.h>
#ifdef CONFIG_MH_STATS
#include <linux/mutex.h>
static DEFINE_MUTEX(mh_stats_lock);
#endif

static int mh_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	mh_count++;
	return 0;
}

static struct file_operations mh_fops = {
	.ioctl		= mh_ioctl,
};
