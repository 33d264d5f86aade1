// rule: ioctl_compat_facts.cocci
/*
 * _IOC_TYPE(cmd): every use is reported (type-use), and those that only
 * reject a foreign type by returning are guards (type-guard).  The second
 * handler's test does not return, and its switch dispatches on the type:
 * no guard, and no case label of cmd.
 */
#include <linux/fs.h>

static long pi_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != PI_IOC_MAGIC)
		return -ENOTTY;
	switch (cmd) {
	case PI_IOC_RESET:
		return 0;
	}
	return -ENOTTY;
}

static long sq_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != SQ_IOC_MAGIC)
		pr_warn("sq: foreign command\n");
	switch (_IOC_TYPE(cmd)) {
	case SQ_IOC_MAGIC:
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations pi_fops = {
	.unlocked_ioctl	= pi_ioctl,
};

static const struct file_operations sq_fops = {
	.unlocked_ioctl	= sq_ioctl,
};
