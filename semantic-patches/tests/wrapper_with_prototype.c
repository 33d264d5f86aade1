// options: -D wrapper
/*
 * The fops comes before the handler, behind a forward declaration: the
 * wrapper goes right before the fops, after that declaration (rewritten
 * to the new signature), so it needs no declaration of its own.
 */
#include <linux/fs.h>

static int ds_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg);

static struct file_operations ds_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= ds_ioctl,
};

static int ds_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != DS_GET_TEMP)
		return -ENOTTY;
	return ds_read_temp((int __user *)arg);
}
