/*
 * A stacking header of the tree (red23): macros that forward an ioctl
 * through a file's f_op, and statement macros that leave their caller.
 */
#ifndef _LINUX_REDSTACK_H
#define _LINUX_REDSTACK_H

/* pass a command down to the file below, as a stacking layer does */
#define redstack_pass(lf, c, a) \
	((lf)->f_op->ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)))

/* a GNU statement expression that returns from its caller on failure */
#define redstack_try(expr) \
	({ int __rs = (expr); if (__rs < 0) return __rs; __rs; })

/* a status read of the board, spelt as a value */
#define REDSTACK_PORT		0x3a0
#define redstack_status()	inb(REDSTACK_PORT + 1)

#endif
