// options: -D inode_f_path
/*
 * A char device that dispatches on iminor(inode): the inode is derived
 * from the file, in the 2.6.20-3.8 spelling.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <asm/uaccess.h>

#define LP_GETSTATUS	0x060b
#define LP_MAX		4

static unsigned char lp_status[LP_MAX];

static int lp_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned int minor = iminor(inode);
	int status;

	if (minor >= LP_MAX)
		return -ENODEV;
	switch (cmd) {
	case LP_GETSTATUS:
		status = lp_status[minor];
		if (copy_to_user((int __user *)arg, &status, sizeof(int)))
			return -EFAULT;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static struct file_operations lp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lp_ioctl,
};
