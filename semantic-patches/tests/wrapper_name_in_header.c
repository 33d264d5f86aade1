// options: -D wrapper
/*
 * The wrapper's first choice of name is declared in an included header
 * (a prototype, a macro): it takes the next free one, or the file would
 * not compile.
 */
#include <linux/fs.h>
#include "wrapper_name_in_header.h"

static int pa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int pb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return 1;
}

static struct file_operations pa_fops = { .ioctl = pa_ioctl, };
static struct file_operations pb_fops = { .ioctl = pb_ioctl, };
