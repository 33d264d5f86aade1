/*
 * Outside a kernel tree the driver's header cannot be read: a call
 * standing alone as a statement may be a statement macro of it that
 * returns (do { if (!(d)->powered) return -ENODEV; } while (0)), whatever
 * its case, so auto takes the wrapper: after "{", ";", "else" and a
 * case label.  A call whose value is used may be a statement
 * expression that returns: it gets the wrapper too (auto_value_call_unread
 * has its spellings).  One the file declares is read: that keeps pushdown.
 */
#include <linux/fs.h>
#include <linux/board.h>

void brd_declared(int);

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	brd_need_power(file->private_data);
	return 0;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	if (cmd)
		return -EINVAL; brd_check(arg);
	return 0;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	if (cmd == 1)
		return 1;
	else
		brd_range(arg);
	return 0;
}

static int d_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1: brd_range(arg);
		break;
	}
	return 0;
}

static int e_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int err = 0;

	if (brd_ready(arg))
		err = brd_start(arg);
	return err;
}

static int f_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	brd_declared(cmd);
	return 0;
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
static struct file_operations d_fops = { .ioctl = d_ioctl, };
static struct file_operations e_fops = { .ioctl = e_ioctl, };
static struct file_operations f_fops = { .ioctl = f_ioctl, };
