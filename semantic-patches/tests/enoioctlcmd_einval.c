// options: -D enoioctlcmd_einval
/*
 * -D enoioctlcmd_einval writes in the source what userspace will see:
 * the VFS turns -ENOIOCTLCMD from .unlocked_ioctl into -EINVAL anyway,
 * so the handler now says -EINVAL itself (userspace saw errno 515
 * before).
 */
int mixer_volume();
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
