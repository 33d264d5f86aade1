/*
 * Real drivers spell the command and argument types in many ways; all of
 * them are accepted, and the handler keeps its own spelling.
 */
#include <linux/fs.h>

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned cmd, ulong arg)
{
	return cmd == A_RESET ? 0 : -ENOTTY;
}

static int b_ioctl(struct inode *ip, struct file *fp, u_int cmd, u_long arg)
{
	if (cmd == B_RESET)
		return 0;
	return -ENOTTY;
}

static int c_ioctl(struct inode *inode, struct file *filp, uint cmd,
		   unsigned long arg)
{
	return -ENOTTY;
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
