/*
 * "return" passed as a macro argument: spatch sees a call, not a return,
 * and would put no unlock before it.  A return in the handler's text that
 * spatch did not match makes auto pick the wrapper.
 */
#include <linux/fs.h>

#define ON_ERROR(cond, action)	do { if (cond) { action; } } while (0)

static int pwm_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	ON_ERROR(arg > PWM_MAX, return -EINVAL);
	pwm_set(arg);
	return 0;
}

static struct file_operations pwm_fops = {
	.ioctl		= pwm_ioctl,
};
