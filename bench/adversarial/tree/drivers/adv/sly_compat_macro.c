/*
 * sly_compat_macro: a capture card whose 32-bit entry passes the command
 * on to the legacy handler, holding the BKL through a macro of its own.
 * Shape: the compat handler calls the legacy one inside CM_BKL(), a
 * statement expression that takes and drops the BKL around its argument;
 * the inode passed is a local set from the file's dentry.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <linux/compat.h>
#include <asm/uaccess.h>
#include <asm/io.h>

#define CM_PORT		0x290
#define CM_ARM		_IO('w', 1)
#define CM_FRAMES	_IOR('w', 2, int)

#define CM_BKL(expr) \
	({ long __cm; lock_kernel(); __cm = (expr); unlock_kernel(); __cm; })

static int cm_frames;

static int cm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case CM_ARM:
		outb(1, CM_PORT);
		return ++cm_frames;
	case CM_FRAMES:
		return put_user(cm_frames, (int __user *)arg);
	}
	return -ENOTTY;
}

#ifdef HAVE_COMPAT_IOCTL
static long cm_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;

	return CM_BKL(cm_ioctl(inode, file, cmd, (unsigned long)compat_ptr(arg)));
}
#endif

static struct file_operations cm_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= cm_ioctl,
#ifdef HAVE_COMPAT_IOCTL
	.compat_ioctl	= cm_compat_ioctl,
#endif
};

static struct miscdevice cm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_compat_macro",
	.fops	= &cm_fops,
};

static int __init cm_init(void)
{
	return misc_register(&cm_misc);
}
module_init(cm_init);
MODULE_LICENSE("GPL");
