/*
 * One name for the temporary per file: the first handler's "int ret"
 * could serve, the second's unsigned one cannot, so both declare a
 * fresh int under the same free name.  (int) follows the name "ret"
 * through the file, so the int one is cast too, which changes nothing.
 */
int in_ready();
int out_ready();
int in_read();
int out_write();
#include <linux/fs.h>

static int in_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int ret;

	ret = in_ready();
	if (ret)
		return ret;
	return put_user(in_read(), (int __user *)arg);
}

static int out_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	unsigned int ret;

	ret = out_ready();
	if (ret)
		return ret;
	return out_write(arg);
}

static struct file_operations in_fops = {
	.ioctl		= in_ioctl,
};

static struct file_operations out_fops = {
	.ioctl		= out_ioctl,
};
