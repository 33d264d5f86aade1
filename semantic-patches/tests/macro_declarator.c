// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/*
 * Family "declarator" of semantic-patches/macros.h: a macro that writes
 * the type and the name of a definition with an initializer.  Without the
 * hint spatch cannot parse that definition (the handler's report does
 * not depend on it).
 */
#include <linux/fs.h>
#include <linux/lsm_hooks.h>

#define GATE_STATUS	_IOR('G', 1, int)

static int gate_enabled = 1;

static long gate_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == GATE_STATUS)
		return put_user(gate_enabled, (int __user *)arg);
	return -ENOIOCTLCMD;
}

static const struct file_operations gate_fops = {
	.unlocked_ioctl	= gate_ioctl,
	.compat_ioctl	= gate_ioctl,
};

static int __init gate_init(void)
{
	return 0;
}

DEFINE_LSM(gate) = {
	.name = "gate",
	.init = gate_init,
};
