/*
 * The handler already has a top-level "ret": complex returns reuse it
 * instead of declaring another.
 */
#include <linux/fs.h>
#include <asm/uaccess.h>

#define JS_GET_CAL	_IOR('j', 0x22, int)
#define JS_SET_CAL	_IOW('j', 0x21, int)

static int js_cal;

static int js_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int ret = 0;

	switch (cmd) {
	case JS_GET_CAL:
		return put_user(js_cal, (int __user *)arg);
	case JS_SET_CAL:
		ret = get_user(js_cal, (int __user *)arg);
		break;
	default:
		ret = -ENOTTY;
	}
	return ret;
}

static struct file_operations js_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= js_ioctl,
};
