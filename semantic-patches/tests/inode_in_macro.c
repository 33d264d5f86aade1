/*
 * The handler reaches its inode only through a macro of the file
 * (UNIT() expands to iminor(inode)): the inode is derived from the file,
 * under the same name, so the macro keeps working.
 */
int dimmer_set();
#include <linux/fs.h>

#define UNIT()	iminor(inode)

static int dimmer_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return dimmer_set(UNIT(), arg);
}

static struct file_operations dimmer_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= dimmer_ioctl,
};
