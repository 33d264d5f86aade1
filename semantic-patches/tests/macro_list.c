// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/*
 * Family "list" of semantic-patches/macros.h: a macro that stands for
 * several elements of an initializer, each with its comma.  Without the
 * hint spatch cannot parse the table (the handler's report does not
 * depend on it).
 */
#include <linux/fs.h>

#define OPT_COUNT	_IOR('O', 1, int)

static const char *trace_option_names[] = {
	TRACE_FLAGS
	NULL
};

static long opt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == OPT_COUNT)
		return put_user(ARRAY_SIZE(trace_option_names) - 1, (int __user *)arg);
	return -ENOIOCTLCMD;
}

static const struct file_operations opt_fops = {
	.unlocked_ioctl	= opt_ioctl,
	.compat_ioctl	= opt_ioctl,
};
