/*
 * dial: DIAL_UNIT() is 0 at first, then redefined to name the inode
 * before the handler; DIAL_SEL() names it.
 */
#include <linux/fs.h>
int dial_set(int unit, unsigned long arg);

#define DIAL_UNIT()	0
#define DIAL_SEL()	(DIAL_UNIT() | 0x10)
#undef DIAL_UNIT
#define DIAL_UNIT()	iminor(inode)

static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return dial_set(DIAL_SEL(), arg);
}

static struct file_operations dial_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= dial_ioctl,
};
