// options: -D handlers=cpuid_ioctl
/*
 * The definition's side of a handler whose fops lives in another file:
 * -D handlers= names it, so it is converted (always by pushdown, since the
 * other file names it directly) although no fops here uses it.
 */
int cpuid_read();
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
