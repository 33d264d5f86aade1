/*
 * A complex return needs a temporary, but "ret" is only declared in an
 * inner block: a top-level "ret" would clash with nothing, yet reusing
 * the inner one is not possible, so pushdown declares a fresh int with
 * a name the file does not use.
 */
int cam_reset();
int cam_status();
#include <linux/fs.h>

static int cam_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd == CAM_RESET) {
		int ret = cam_reset();

		if (ret)
			return ret;
	}
	return cam_status((int __user *)arg);
}

static struct file_operations cam_fops = {
	.ioctl		= cam_ioctl,
};
