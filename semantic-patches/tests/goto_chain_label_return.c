/*
 * A chain of cleanup labels, one of which returns a constant itself: that
 * return is unlocked where it is, and the last return once.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <asm/uaccess.h>

static int gc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	char *a, *b;
	int err = -ENOMEM;

	a = kmalloc(16, GFP_KERNEL);
	if (!a)
		goto out;
	b = kmalloc(32, GFP_KERNEL);
	if (!b)
		goto out_a;
	err = -EFAULT;
	if (copy_from_user(a, (void __user *)arg, 16))
		goto out_b;
	if (cmd == 2) {
		err = 0;
		goto out_b;
	}
	err = cmd == 1 ? 1 : -EINVAL;
out_b:
	kfree(b);
	if (err == 1) {
		kfree(a);
		return 7;
	}
out_a:
	kfree(a);
out:
	return err;
}

static struct file_operations gc_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= gc_ioctl,
};
