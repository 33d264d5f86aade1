/*
 * "ret" is unsigned: reused as the temporary, -EFAULT would come back
 * from the long handler as 4294967282.  The complex return goes into a
 * fresh int, and ret itself is returned as (int)ret, the value the
 * legacy int handler returned.
 */
int st_status();
int st_set();
#include <linux/fs.h>

static int st_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned int ret = 0;

	if (cmd == ST_GET)
		return put_user(st_status(), (int __user *)arg);
	if (cmd != ST_SET)
		ret = -ENOTTY;
	else if (st_set(arg))
		ret = -EIO;
	return ret;
}

static struct file_operations st_fops = {
	.ioctl		= st_ioctl,
};
