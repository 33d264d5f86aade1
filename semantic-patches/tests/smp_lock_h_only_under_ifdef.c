/*
 * <linux/smp_lock.h> is already included, but only under an #ifdef the
 * handler is not in: without CONFIG_SI_LEGACY, lock_kernel() would have
 * no declaration.  The header is added after the last #include every
 * configuration compiles, as if the file had none.
 */
#include <linux/fs.h>
#ifdef CONFIG_SI_LEGACY
#include <linux/smp_lock.h>
#endif

static int si_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != SI_GET)
		return -EINVAL;
	return si_level;
}

static struct file_operations si_fops = {
	.ioctl		= si_ioctl,
};
