/*
 * Every #include is under an #ifdef that the handler is not: no place for
 * <linux/smp_lock.h> is compiled wherever lock_kernel() would be used.
 * Refused rather than converted to code some configurations cannot build.
 */
#ifdef __KERNEL__
#include <linux/fs.h>
#endif

static int chime_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return chime_ring(cmd);
}

static struct file_operations chime_fops = {
	.ioctl		= chime_ioctl,
};
