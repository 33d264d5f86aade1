/*
 * adv_case_block: a DMA engine whose cases have their own blocks.
 * Shape: "case X: { ...; return f(...); } break;" (a return in the block of
 * a case, a dead break after it), locals declared inside case blocks.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <asm/io.h>

#define CB_START	_IOW('D', 1, int)
#define CB_LEN		_IOR('D', 2, int)
#define CB_PORT		0x0c0

static int cb_len;

static int cb_kick(int len)
{
	outb(len & 0xff, CB_PORT);
	cb_len = len;
	return len ? 0 : -EINVAL;
}

static int cb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case CB_START: {
		int len;

		if (get_user(len, (int __user *)arg))
			return -EFAULT;
		return cb_kick(len & 0xfff);
	}
		break;
	case CB_LEN: {
		int __user *p = (int __user *)arg;
		return put_user(cb_len, p);
	}
		break;
	default:
		break;
	}
	return -ENOTTY;
}

static struct file_operations cb_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= cb_ioctl,
};

static struct miscdevice cb_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_case_block",
	.fops	= &cb_fops,
};

static int __init cb_init(void)
{
	return misc_register(&cb_misc);
}
module_init(cb_init);
MODULE_LICENSE("GPL");
