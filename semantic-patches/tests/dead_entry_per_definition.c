/*
 * Two definitions of one fops name under #ifdef/#else are two entries:
 * the .ioctl beside an .unlocked_ioctl in the first is dead and goes, the
 * one in the second is live and is converted, and the handler it names
 * stays.
 */
#include <linux/fs.h>
void fan_speed();

static long fan_unlocked_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	return fan_do_ioctl(file, cmd, arg);
}

static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != FAN_SPEED)
		return -ENOTTY;
	fan_speed(arg);
	return 0;
}

#ifdef CONFIG_FAN_UNLOCKED
static struct file_operations fan_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fan_unlocked_ioctl,
	.ioctl		= fan_ioctl,
};
#else
static struct file_operations fan_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= fan_ioctl,
};
#endif
