/* Shared by the two files of red_xdot.ko. */
#ifndef RED_XDOT_H
#define RED_XDOT_H

#define XD_ARM		_IO('f', 1)
#define XD_STATE	_IO('f', 2)
#define XD_HELLO	_IO('f', 3)
#define XD_PORT		0x3d0

extern struct file_operations xd_core_fops;

#endif
