// options: -D pushdown
/*
 * A declaration calls a function that is not pure, so under pushdown it
 * would run before lock_kernel(): -D pushdown splits it, the declaration
 * stays and the call follows the lock.
 */
struct scanner *scanner_get();
int scanner_start();
#include <linux/fs.h>

#define SCAN_START	_IO('S', 1)

static int scanner_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	struct scanner *scn = scanner_get(iminor(inode));

	if (!scn)
		return -ENODEV;
	if (cmd != SCAN_START)
		return -ENOTTY;
	return scanner_start(scn);
}

static struct file_operations scanner_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= scanner_ioctl,
};
