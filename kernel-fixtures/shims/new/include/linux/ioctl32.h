/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registered 32-bit ioctl conversions, as in Linux 2.6.11: a 32-bit
 * process's ioctl that the file's compat_ioctl did not handle is looked
 * up here by command number.  A NULL handler means the native 64-bit
 * ioctl is correct for 32-bit callers too.
 */
#ifndef _LINUX_IOCTL32_H
#define _LINUX_IOCTL32_H

struct file;

typedef int (*ioctl_trans_handler_t)(unsigned int, unsigned int,
				     unsigned long, struct file *);

int register_ioctl32_conversion(unsigned int cmd,
				ioctl_trans_handler_t handler);
int unregister_ioctl32_conversion(unsigned int cmd);

/* The VFS's 32-bit path after the generic commands (fs/ioctl32.c). */
long ioctl32_dispatch(struct file *file, unsigned int fd, unsigned int cmd,
		      unsigned long arg);

#endif /* _LINUX_IOCTL32_H */
