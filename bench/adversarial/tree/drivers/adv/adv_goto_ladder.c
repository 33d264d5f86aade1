/*
 * adv_goto_ladder: a firmware upload with a buffer and a semaphore.
 * Shape: a goto ladder (out_free, out_up, out) with returns only at the
 * bottom, the driver's own 2.6 semaphore (down_interruptible/up), kmalloc.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/slab.h>
#include <asm/semaphore.h>
#include <asm/uaccess.h>
#include <asm/io.h>

#define GL_LOAD		_IOW('g', 1, int)
#define GL_SUM		_IOR('g', 2, int)
#define GL_PORT		0x300

static DECLARE_MUTEX(gl_sem);
static int gl_sum;

static int gl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	unsigned char *buf;
	int ret, i;

	if (cmd == GL_SUM)
		return put_user(gl_sum, (int __user *)arg);
	if (cmd != GL_LOAD)
		return -ENOTTY;

	if (down_interruptible(&gl_sem))
		return -ERESTARTSYS;
	buf = kmalloc(64, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out_up;
	}
	if (copy_from_user(buf, (void __user *)arg, 64)) {
		ret = -EFAULT;
		goto out_free;
	}
	for (i = 0; i < 64; i++) {
		if (buf[i] == 0xff) {
			ret = -EINVAL;
			goto out_free;
		}
		outb(buf[i], GL_PORT);
		gl_sum += buf[i];
	}
	ret = gl_sum & 0xffff;
out_free:
	kfree(buf);
out_up:
	up(&gl_sem);
	return ret;
}

static struct file_operations gl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= gl_ioctl,
};

static struct miscdevice gl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_goto_ladder",
	.fops	= &gl_fops,
};

static int __init gl_init(void)
{
	return misc_register(&gl_misc);
}
module_init(gl_init);
MODULE_LICENSE("GPL");
