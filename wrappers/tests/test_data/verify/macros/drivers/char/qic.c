/*
 * qic.c: a tape status device whose ioctl leaves through QIC_EXIT, an
 * object-like macro that hides a return.
 */
#include <linux/fs.h>
#include <linux/module.h>

#define QIC_REWIND	0x7101
#define QIC_EXIT	return result

static int qic_rewind(void);
static int qic_status(unsigned long arg);

static int qic_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int result = -ENOTTY;

	if (cmd == QIC_REWIND) {
		result = qic_rewind();
		QIC_EXIT;
	}
	result = qic_status(arg);
	QIC_EXIT;
}

static struct file_operations qic_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= qic_ioctl,
};
