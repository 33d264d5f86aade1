// options: -D mutex
/*
 * The private mutex's first choice of name is declared in an included
 * header: it takes the next free one, or the file would not compile.
 */
#include <linux/fs.h>
#include "mutex_name_in_header.h"

static int qa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations qa_fops = { .ioctl = qa_ioctl, };
