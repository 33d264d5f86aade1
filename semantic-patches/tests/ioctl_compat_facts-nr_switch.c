// rule: ioctl_compat_facts.cocci
/*
 * A switch on _IOC_NR(cmd): its labels are the commands (nr-case), and
 * the _IOC_NR it is on is reported (nr-switch) beside every _IOC_NR use.
 * A case that breaks out of a nested block is a case all the same.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

static long rf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	u32 size;

	switch (_IOC_NR(cmd)) {
	case RFKILL_IOC_NOINPUT:
		return 0;
	case RFKILL_IOC_MAX_SIZE:
		if (get_user(size, (__u32 __user *)arg)) {
			pr_debug("rf: nr %u\n", _IOC_NR(cmd));
			break;
		}
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations rf_fops = {
	.unlocked_ioctl	= rf_ioctl,
};
