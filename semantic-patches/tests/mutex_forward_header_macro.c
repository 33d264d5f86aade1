// options: -D mutex
/*
 * -D mutex and a call through a file_operations written only in a macro
 * of a header the file includes (HM_PASS: (lf)->f_op->ioctl(...)); the
 * file's own text has no "->ioctl".  Like the same macro in the file
 * (mutex_forward_helper), it runs under the private mutex the caller
 * holds and may reach a handler of the file: both handlers are left
 * alone, naming the macro's site (ioctl_rule/forwarded_calls.py reads the
 * headers the file includes).  Both were converted once: the file no
 * longer compiled on a target with no .ioctl (red_fwd_macro of the
 * adversarial measure, mutex-auto); in the BKL modes convert refuses the
 * run (ctext/macro_forwarding.py, test_macro_forwarding).
 */
#include <linux/fs.h>
#include "mutex_forward_header_macro.h"

static int hm_low_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static struct file_operations hm_low_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hm_low_ioctl,
};

static int hm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lf = file->private_data;

	if (cmd == 2)
		return 1;
	return HM_PASS(lf, cmd, arg);
}

static struct file_operations hm_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hm_ioctl,
};
