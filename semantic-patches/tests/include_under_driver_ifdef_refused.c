/*
 * The whole driver, its includes too, is under one #ifdef.  That #ifdef
 * encloses every use, but spatch adds nothing after an #include inside an
 * #if: converting would leave lock_kernel() without <linux/smp_lock.h>.
 * Refused with that reason.
 */
#ifdef CONFIG_BELL
#include <linux/fs.h>
#include <linux/module.h>

static int bell_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return bell_ring(cmd);
}

static struct file_operations bell_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= bell_ioctl,
};
#endif
