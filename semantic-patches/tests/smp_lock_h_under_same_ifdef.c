/*
 * <linux/smp_lock.h> and the handler are under the same #ifdef: every
 * configuration that has the handler has the header, and nothing is
 * added.
 */
int sj_command();
#include <linux/fs.h>

#ifdef CONFIG_SJ_IOCTL
#include <linux/smp_lock.h>

static int sj_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return sj_command(cmd);
}

static struct file_operations sj_fops = {
	.ioctl		= sj_ioctl,
};
#endif
