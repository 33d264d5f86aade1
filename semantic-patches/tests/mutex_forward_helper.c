// options: -D mutex
/*
 * -D mutex and a call through a file_operations written outside the
 * handlers: in a helper the handler calls, and in a macro of the file.
 * Either runs under the private mutex the handler holds and may reach the
 * handler again: left alone, naming the first site.
 */
#include <linux/fs.h>

#define HL_PASS(f, c, a) ((f)->f_op->ioctl(file_inode(f), (f), (c), (a)))

static struct file *hl_lower;

static int hl_relay(unsigned int cmd, unsigned long arg)
{
	return hl_lower->f_op->ioctl(file_inode(hl_lower), hl_lower, cmd, arg);
}

static int hl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == 3)
		return HL_PASS(hl_lower, cmd, arg);
	return hl_relay(cmd, arg);
}

static struct file_operations hl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hl_ioctl,
};
