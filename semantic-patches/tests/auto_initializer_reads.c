// Expected: auto_initializer_reads.report.res (what report mode prints).
/*
 * Default-deny auto: a declaration's initializer runs before the lock.
 * One that reads memory other than the parameters, what they point to and
 * the locals before it was read under the BKL: a read-modify-write of
 * shared state, a global, a hardware register behind a macro, a value
 * through a pointer.  Each, the only one of its handler, is split: the
 * assignment follows the lock (auto_split_refused: when it cannot be).
 * Reading the parameters, an address, a constant macro, a sizeof stays.
 */
#include <linux/fs.h>

#define HC_STATUS	inb(0x300)
#define HG_DEFAULT	3

struct hz_dev {
	int users;
	int *table;
	int hw;
};

static int open_count;
static int levels[4];

static int ha_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct hz_dev *dev = file->private_data;
	int users = dev->users;

	dev->users = users + 1;
	return 0;
}

static int hb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int count = open_count;

	open_count = count + 1;
	return count;
}

static int hc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int st = HC_STATUS;

	return st & 1;
}

static int hd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct hz_dev *dev = file->private_data;
	int first = *dev->table;

	return first;
}

static int he_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int level = levels[iminor(inode) & 3];

	return level;
}

static int hf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct hz_dev *dev = file->private_data;
	int minor = iminor(inode);
	void __user *argp = (void __user *)arg;
	int *hw = &dev->hw;
	int ret = -EINVAL;
	unsigned int size = sizeof(*dev);
	unsigned int flags = file->f_flags;

	if (flags & 1)
		ret = copy_to_user(argp, hw, size) ? -EFAULT : minor;
	return ret;
}

static int hg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int mode = HG_DEFAULT;

	return mode;
}

static struct file_operations ha_fops = { .ioctl = ha_ioctl, };
static struct file_operations hb_fops = { .ioctl = hb_ioctl, };
static struct file_operations hc_fops = { .ioctl = hc_ioctl, };
static struct file_operations hd_fops = { .ioctl = hd_ioctl, };
static struct file_operations he_fops = { .ioctl = he_ioctl, };
static struct file_operations hf_fops = { .ioctl = hf_ioctl, };
static struct file_operations hg_fops = { .ioctl = hg_ioctl, };
