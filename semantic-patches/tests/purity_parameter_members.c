/*
 * A declaration that reads a member of the file or the inode before the
 * lock: the file's private_data, flags and dentry and the inode's device
 * do not change under an ioctl, so reading them early reads what the lock
 * would have (no split).  Any other member (the file position, the inode
 * size), one of those the handler itself writes, and a member of what a
 * cast private_data points to may be half of a read-modify-write another
 * call races with: the initializer moves under the lock.
 */
void *pm_swap();
#include <linux/fs.h>

struct pm_dev {
	int users;
};

static int pa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	loff_t pos = file->f_pos;

	file->f_pos = pos + arg;
	return 0;
}

static int pb_ioctl(struct inode *ip, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	loff_t size = ip->i_size;

	ip->i_size = size + 1;
	return 0;
}

static int pc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int users = ((struct pm_dev *)file->private_data)->users;

	((struct pm_dev *)file->private_data)->users = users + 1;
	return 0;
}

static int pd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	void *old = file->private_data;

	file->private_data = pm_swap(old);
	return 0;
}

static int pe_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct pm_dev *dev = file->private_data;
	unsigned int nonblock = file->f_flags & O_NONBLOCK;
	unsigned int minor = MINOR(inode->i_rdev);

	if (nonblock && minor)
		return -EAGAIN;
	dev->users++;
	return 0;
}

static int pf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned int flags = file->f_flags;

	file->f_flags = flags | O_SYNC;
	return 0;
}

static struct file_operations pm_fops[] = {
	{ .ioctl = pa_ioctl, },
	{ .ioctl = pb_ioctl, },
	{ .ioctl = pc_ioctl, },
	{ .ioctl = pd_ioctl, },
	{ .ioctl = pe_ioctl, },
	{ .ioctl = pf_ioctl, },
};
