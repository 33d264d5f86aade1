// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/*
 * Family "iterator" of semantic-patches/macros.h: a scoped lock and a loop
 * written as a call before one statement.  Without the hints spatch cannot
 * parse either handler, and neither -ENOIOCTLCMD is reported.
 */
#include <linux/fs.h>
#include <linux/kvm_host.h>
#include <linux/mutex.h>

#define FAN_GET_SPEED	_IOR('F', 1, int)
#define VM_GET_EXITS	_IOR('V', 1, __u64)

static DEFINE_MUTEX(fan_lock);
static int fan_speed;

static long fan_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int speed;

	switch (cmd) {
	case FAN_GET_SPEED:
		scoped_guard(mutex, &fan_lock)
			speed = fan_speed;
		return put_user(speed, (int __user *)arg);
	default:
		return -ENOIOCTLCMD;
	}
}

static long vm_stat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct kvm *kvm = file->private_data;
	struct kvm_vcpu *vcpu;
	unsigned long i;
	u64 exits = 0, *total = &exits;

	if (cmd != VM_GET_EXITS)
		return -ENOIOCTLCMD;
	kvm_for_each_vcpu(i, vcpu, kvm)
		*total += vcpu->stat.exits;
	return put_user(exits, (u64 __user *)arg);
}

static const struct file_operations fan_fops = {
	.unlocked_ioctl	= fan_ioctl,
	.compat_ioctl	= fan_ioctl,
};

static const struct file_operations vm_stat_fops = {
	.unlocked_ioctl	= vm_stat_ioctl,
	.compat_ioctl	= vm_stat_ioctl,
};
