/*
 * The fresh temporary must not shadow anything of the file: "ret2" is a
 * global here, so the temporary is "ret3".
 */
#include <linux/fs.h>

static int ret2;

static int vu_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long ret)
{
	if (cmd != VU_GET)
		return -ENOTTY;
	return put_user(ret2, (int __user *)ret);
}

static struct file_operations vu_fops = {
	.ioctl		= vu_ioctl,
};
