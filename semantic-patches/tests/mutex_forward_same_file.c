// options: -D mutex
/*
 * -D mutex and a handler that forwards through a file_operations pointer
 * to another handler of the same file (bench/adversarial adv_forward_ptr,
 * --target 6.1 in every strategy).  Under the BKL the forwarded call
 * nested; under the private mutex, converted, the upper handler holds the
 * mutex when fp_lower->unlocked_ioctl takes it again: every forwarded
 * command deadlocks, exit 0 and the lock proof satisfied.  The pointer may
 * reach any handler of the file, so, as with direct calls, the handlers
 * are converted together or not at all: here neither, each with the reason.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define FP_UPPER_PING	_IO('u', 1)
#define FP_LOWER_KICK	_IO('u', 2)
#define FP_PORT		0x220

static int fp_lower_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd != FP_LOWER_KICK)
		return -ENOTTY;
	outb(1, FP_PORT);
	return 0;
}

static struct file_operations fp_lower_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fp_lower_ioctl,
};

static const struct file_operations *fp_lower = &fp_lower_fops;

static int fp_upper_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd == FP_UPPER_PING)
		return 42;
	if (fp_lower && fp_lower->ioctl)
		return fp_lower->ioctl(inode, file, cmd, arg);
	return -ENOTTY;
}

static struct file_operations fp_upper_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fp_upper_ioctl,
};
