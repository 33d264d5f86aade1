// options: -D wrapper -D compat
/*
 * The wrapper of a handler that only a run-time assignment names goes
 * before the function that assigns it; with -D compat the assignment of
 * .compat_ioctl follows.
 */
#include <linux/fs.h>

typedef struct file_operations probe_fops_t;

static probe_fops_t probe_fops;

static int probe_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return probe_control(cmd, arg);
}

static int __init probe_init(void)
{
	probe_fops.ioctl = &probe_ioctl;
	return register_chrdev(PROBE_MAJOR, "probe", &probe_fops);
}
