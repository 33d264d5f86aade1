// options: -D mutex
/*
 * -D mutex: the first converted handler is inside an #ifdef and the
 * second is not; the mutex goes before the last function ahead of both
 * that every configuration compiles, not inside the #ifdef.
 */
int fan_extra();
int fan_set();
#include <linux/fs.h>

static void fan_reset(void)
{
	fan_write(0);
}

#ifdef CONFIG_FAN_EXTRA
static int fan_extra_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	return fan_extra(cmd);
}

static struct file_operations fan_extra_fops = {
	.ioctl		= fan_extra_ioctl,
};
#endif

static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return fan_set(cmd);
}

static struct file_operations fan_fops = {
	.ioctl		= fan_ioctl,
};
