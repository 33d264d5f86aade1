/* The file_operations is spelled through a typedef, GNU style. */
#include <linux/fs.h>

typedef struct file_operations tdef_fops_t;

static int tdef_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static tdef_fops_t tdef_fops = {
	owner:		THIS_MODULE,
	ioctl:		tdef_ioctl,	/* entry */
};
