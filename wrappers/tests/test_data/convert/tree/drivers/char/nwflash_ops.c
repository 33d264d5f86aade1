/* The definition of flash_ioctl, used by the fops in nwflash.c. */
#include <linux/fs.h>
#include "nwflash.h"

int flash_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
		unsigned long arg)
{
	if (cmd == 2)
		return 0;
	return -EINVAL;
}
