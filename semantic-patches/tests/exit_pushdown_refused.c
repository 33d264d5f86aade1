// options: -D pushdown
/*
 * -D pushdown refuses every handler with an exit it cannot put an unlock
 * before, and names it: a returning object-like macro, a macro that
 * returns through another, one of the driver's header, "( {", and a
 * return passed as a macro argument.  The last handler has none.
 */
#include <linux/fs.h>
#include "exit_header_macro.h"

#define NEED_ADMIN	if (!capable(CAP_SYS_ADMIN)) return -EPERM
#define FAIL_WITH(e)	return (e)
#define CHECK(c)	do { if (!(c)) FAIL_WITH(-EINVAL); } while (0)
#define ON_ERROR(cond, action)	do { if (cond) { action; } } while (0)

static int a_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	NEED_ADMIN;
	return 0;
}

static int b_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	CHECK(arg);
	return 0;
}

static int c_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	int value;

	IOCTL_IN(arg, value);
	return value;
}

static int d_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return ( { if (!arg) return -EINVAL; 0; } );
}

static int e_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	ON_ERROR(!arg, return -EINVAL);
	return 0;
}

static int f_ioctl(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	if (!arg)
		return -EINVAL;
	return 0;
}

static struct file_operations a_fops = { .ioctl = a_ioctl, };
static struct file_operations b_fops = { .ioctl = b_ioctl, };
static struct file_operations c_fops = { .ioctl = c_ioctl, };
static struct file_operations d_fops = { .ioctl = d_ioctl, };
static struct file_operations e_fops = { .ioctl = e_ioctl, };
static struct file_operations f_fops = { .ioctl = f_ioctl, };
