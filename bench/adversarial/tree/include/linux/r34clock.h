/* red34: the clock chip's commands, and its handler for other modules. */
#ifndef _LINUX_R34CLOCK_H
#define _LINUX_R34CLOCK_H

#define R34CLOCK_TICK	_IO('k', 0x21)
#define R34CLOCK_GET	_IO('k', 0x22)

struct inode;
struct file;
extern int ex_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg);

#endif
