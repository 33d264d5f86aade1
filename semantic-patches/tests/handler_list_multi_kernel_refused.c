// options: -D multi_kernel -D handlers=cpuid_ioctl
/*
 * -D multi_kernel for the definition's side of a handler whose fops lives
 * in another file: the #ifdef HAVE_UNLOCKED_IOCTL output needs the fops
 * beside the handler, so the definition stays as it is (no lock header
 * either: nothing here would use it).
 */
#include <linux/fs.h>
#include "cpuid.h"

int cpuid_ioctl(struct inode *inode, struct file *file,
		unsigned int cmd, unsigned long arg)
{
	int cpu = iminor(inode);

	if (cmd != CPUID_READ)
		return -ENOTTY;
	return cpuid_read(cpu, (void __user *)arg);
}
