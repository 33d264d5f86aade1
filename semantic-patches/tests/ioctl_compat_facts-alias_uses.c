// rule: ioctl_compat_facts.cocci
/*
 * Every use of an alias is reported, whichever rule found the alias: one
 * set by an assignment after its declaration (argp), one declared with
 * its cast (ip), one declared from another alias (q).  The rule joins by
 * name, so a use of the name outside the handlers (ip in fx_helper) is
 * dropped with the other facts of that function.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

static int fx_helper(int __user *ip)
{
	return put_user(0, ip);
}

static long fx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp;
	int __user *ip = (int __user *)arg;
	int __user *q = ip;

	argp = (void __user *)arg;
	switch (cmd) {
	case FX_GET:
		return copy_to_user(argp, &fx_state, sizeof(fx_state)) ? -EFAULT : 0;
	case FX_SET:
		return get_user(fx_level, ip);
	}
	return fx_helper(q);
}

static const struct file_operations fx_fops = {
	.unlocked_ioctl	= fx_ioctl,
};
