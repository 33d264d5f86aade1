/*
 * Report mode names the handler and the line of its -ENOIOCTLCMD, since
 * converting it changes what userspace sees: on the unlocked path
 * the VFS turns -ENOIOCTLCMD into -EINVAL, where userspace used to see
 * errno 515.
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
