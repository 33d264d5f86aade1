/* Shared by the two files of sly_shared.ko. */
#ifndef SLY_SHARED_H
#define SLY_SHARED_H

#include <asm/semaphore.h>

#define SH_TAKE		_IO('h', 1)
#define SH_TOTAL	_IO('h', 2)

/* one per device node, each with its own semaphore */
struct sh_node {
	struct semaphore sem;
	int taken;
};

int sh_ioctl(struct inode *inode, struct file *file,
	     unsigned int cmd, unsigned long arg);

#endif
