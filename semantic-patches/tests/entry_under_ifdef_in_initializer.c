/*
 * The .ioctl entry itself sits under an #ifdef inside the initializer:
 * it is switched where it is, inside the #ifdef.
 */
#include <linux/fs.h>

#define CONFIG_EI_IOCTL 1

static int ei_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 141 : -EINVAL;
}

static struct file_operations ei_fops = {
	.owner		= THIS_MODULE,
#ifdef CONFIG_EI_IOCTL
	.ioctl		= ei_ioctl,
#endif
};
