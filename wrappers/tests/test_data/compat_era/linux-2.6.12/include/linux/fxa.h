/* The ABI of the fixture adapter drivers: one command carries a long. */
#ifndef _LINUX_FXA_H
#define _LINUX_FXA_H

#include <linux/ioctl.h>
#include <linux/types.h>

struct fxa_timeout {
	long msecs;
};

#define FXA_GET_TIMEOUT	_IOR('f', 1, struct fxa_timeout)
#define FXA_RESET	_IO('f', 2)
#define FXA_SET_MODE	_IOW('f', 3, int)
#define FXA_SET_FLAGS	_IOW('f', 5, int)
#define FXA_SET_LEVEL	_IOW('f', 6, int)

#ifdef __KERNEL__
#include <linux/fs.h>
#endif

#endif
