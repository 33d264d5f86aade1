/*
 * The old GNU "field: value" initializer, still found in 2.6 trees: the
 * entry becomes a C99 .unlocked_ioctl.
 */
#include <linux/fs.h>
void dsp_reset();

#define DSP_RESET	_IO('P', 0)

static int dsp_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd == DSP_RESET) {
		dsp_reset();
		return 0;
	}
	return -EINVAL;
}

static struct file_operations dsp_fops = {
	owner:		THIS_MODULE,
	ioctl:		dsp_ioctl,
	open:		dsp_open,
};
