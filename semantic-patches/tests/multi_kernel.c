// options: -D multi_kernel -D inode_f_dentry
/*
 * An out-of-tree driver that must still build before 2.6.11: the legacy
 * handler stays for old kernels and a wrapper serves HAVE_UNLOCKED_IOCTL,
 * each compiled only where the fops uses it.
 */
#include <linux/module.h>
#include <linux/fs.h>

#define GPIO_GET	_IOR('G', 1, int)

static int gpio_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd != GPIO_GET)
		return -ENOTTY;
	return put_user(gpio_read(iminor(inode)), (int __user *)arg);
}

static struct file_operations gpio_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= gpio_ioctl,
};
