// options: -D handlers=mx_ioctl -D inode_f_dentry
/*
 * A compat wrapper of a handler converted in another file: its inode
 * local feeds the call, and a macro of the file names it too.  The call
 * loses the argument; the local stays, the macro still uses it.  (A
 * file with such a macro in use keeps every such local: an unused one is
 * a warning, a dropped one would not compile.)
 */
#include <linux/fs.h>
#include "mx.h"

#define MX_TRACE(c)	printk(KERN_DEBUG "mx%u: %x\n", iminor(inode), (c))

static long mx_compat_traced(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;

	MX_TRACE(cmd);
	return mx_ioctl(inode, file, cmd, arg);
}
