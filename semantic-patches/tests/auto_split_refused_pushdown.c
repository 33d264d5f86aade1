// options: -D pushdown
// Expected: auto_split_refused_pushdown.report.res (what report mode prints).
/*
 * Default-deny auto: an initializer that must not run before the lock is
 * split only when it is the only one, declares one plain variable and no
 * later initializer reads that variable.  Otherwise -D pushdown refuses
 * the handler and says why: two such initializers, a later initializer
 * that reads it, a const variable, two variables in one declaration.
 */
#include <linux/fs.h>

struct tz_dev {
	int users;
	int open;
};

static int ta_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	struct tz_dev *dev = filp->private_data;
	int users = dev->users;
	int open = dev->open;

	return users + open;
}

static int tb_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	struct tz_dev *dev = filp->private_data;
	int users = dev->users;
	int next = users + 1;

	dev->users = next;
	return 0;
}

static int tc_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	struct tz_dev *dev = filp->private_data;
	const int users = dev->users;

	return users;
}

static int td_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	struct tz_dev *dev = filp->private_data;
	int users = dev->users, open = 0;

	return users + open;
}

static struct file_operations ta_fops = { .ioctl = ta_ioctl, };
static struct file_operations tb_fops = { .ioctl = tb_ioctl, };
static struct file_operations tc_fops = { .ioctl = tc_ioctl, };
static struct file_operations td_fops = { .ioctl = td_ioctl, };
