/* compat_sys_ioctl as 2.6 had it: the table, or -EINVAL. */
#include <linux/types.h>

int register_ioctl32_conversion(unsigned int cmd, ioctl_trans_handler_t handler)
{
	return ioctl32_insert(cmd, handler);
}

asmlinkage long compat_sys_ioctl(unsigned int fd, unsigned int cmd,
				 unsigned long arg)
{
	struct file *filp;
	long error = -EBADF;
	struct ioctl_trans *t;

	filp = fget(fd);
	if (!filp)
		goto out2;
	if (filp->f_op && filp->f_op->compat_ioctl) {
		error = filp->f_op->compat_ioctl(filp, cmd, arg);
		if (error != -ENOIOCTLCMD)
			goto out;
	}
	t = ioctl32_lookup(cmd);
	if (t) {
		error = t->handler(fd, cmd, arg, filp);
		goto out;
	}
	compat_ioctl_error(filp, fd, cmd, arg);
	error = -EINVAL;
out:
	fput(filp);
out2:
	return error;
}
