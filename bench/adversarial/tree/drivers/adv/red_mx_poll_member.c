/*
 * red_mx_poll_member: a mailbox whose reader waits for a writer.
 * Shape: for (;;) { if (box->full) break; msleep_interruptible(5); }
 * in a helper of the file, on a member of the private structure; the
 * loop has no condition of its own.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/delay.h>

#define RPM_PUT		_IO('m', 1)
#define RPM_TAKE	_IO('m', 2)

struct rpm_box {
	int full;
	int word;
};

static struct rpm_box rpm_box;

static int rpm_open(struct inode *inode, struct file *file)
{
	file->private_data = &rpm_box;
	return 0;
}

static int rpm_wait_full(struct rpm_box *box)
{
	for (;;) {
		if (box->full)
			break;
		if (msleep_interruptible(5))
			return -EINTR;
	}
	return 0;
}

static int rpm_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct rpm_box *box = file->private_data;
	int err;

	switch (cmd) {
	case RPM_PUT:
		box->word = arg + 1;
		box->full = 1;
		return 0;
	case RPM_TAKE:
		err = rpm_wait_full(box);
		if (err)
			return err;
		if (arg == 3)		/* take and empty */
			box->full = 0;
		return box->word;
	}
	return -ENOTTY;
}

static struct file_operations rpm_fops = {
	.owner	= THIS_MODULE,
	.open	= rpm_open,
	.ioctl	= rpm_ioctl,
};

static struct miscdevice rpm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mx_poll_member",
	.fops	= &rpm_fops,
};

static int __init rpm_init(void)
{
	return misc_register(&rpm_misc);
}
module_init(rpm_init);
MODULE_LICENSE("GPL");
