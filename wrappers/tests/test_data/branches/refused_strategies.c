/*
 * A handler defined twice, one body returning through a macro (the
 * wrapper) and one not (pushdown): the branches need different
 * conversions of one entry, so it is refused in words.
 */
#include <linux/fs.h>
int valve_set(unsigned long arg);

#define NEED_ADMIN() \
	do { if (!capable(CAP_SYS_ADMIN)) return -EPERM; } while (0)

#ifdef CONFIG_VALVE_SECURE
static int valve_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	NEED_ADMIN();
	return valve_set(arg);
}
#else
static int valve_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return valve_set(arg);
}
#endif

static struct file_operations valve_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= valve_ioctl,
};
