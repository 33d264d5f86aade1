/*
 * A file_operations spelled through a typedef of the file is one too; the
 * GNU "ioctl:" form in it is converted like the C99 one.
 */
#include <linux/fs.h>
void tape_rewind();

typedef struct file_operations tape_fops_t;

static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd == TAPE_REWIND)
		tape_rewind();
	return 0;
}

static tape_fops_t tape_fops = {
	owner:		THIS_MODULE,
	ioctl:		tape_ioctl,
};
