/*
 * Report mode says what else a conversion changes, for convert's summary:
 * the dead entry it removes, the static handler only that entry named
 * (deleted with it), and the direct call that loses its inode argument.
 * A non-static dead handler is kept: another file may call it.
 */
int valve_set();
#include <linux/fs.h>

static long sensor_unlocked_ioctl(struct file *file, unsigned int cmd,
				  unsigned long arg)
{
	return -ENOTTY;
}

static int sensor_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

int sensor_old_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int valve_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return valve_set(cmd, arg);
}

static long valve_compat_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = valve_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}

static struct file_operations sensor_fops = {
	.unlocked_ioctl	= sensor_unlocked_ioctl,
	.ioctl		= sensor_ioctl,
};

static struct file_operations sensor_old_fops = {
	.unlocked_ioctl	= sensor_unlocked_ioctl,
	.ioctl		= sensor_old_ioctl,
};

static struct file_operations valve_fops = {
	.ioctl		= valve_ioctl,
	.compat_ioctl	= valve_compat_ioctl,
};
