/* The stacking macro of mutex_forward_header_macro.c, in its own header. */
#define HM_PASS(lf, c, a) \
	((lf)->f_op->ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)))
