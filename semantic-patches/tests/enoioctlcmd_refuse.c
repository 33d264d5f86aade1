// options: -D enoioctlcmd_refuse
/*
 * -D enoioctlcmd_refuse: a handler that returns -ENOIOCTLCMD is left
 * alone for a person to decide, since its conversion changes what
 * userspace sees (EINVAL instead of errno 515).
 */
#include <linux/fs.h>

#define MIX_GET_VOL	_IOR('M', 1, int)

static int mixer_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MIX_GET_VOL:
		return put_user(mixer_volume(), (int __user *)arg);
	}
	return -ENOIOCTLCMD;
}

static struct file_operations mixer_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= mixer_ioctl,
};
