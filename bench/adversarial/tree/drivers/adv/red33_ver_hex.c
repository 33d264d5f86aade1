/*
 * red33_ver_hex: a vendor driver built for 2.6.9 and later kernels, whose
 * glue tests the version number in two spellings.
 * Shape: #if LINUX_VERSION_CODE >= 0x02060b around an unlocked entry that
 * takes the BKL and calls the legacy handler; a second fops whose entry
 * is chosen by #if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,11) (the
 * legacy entry in the true branch, the order reversed).
 */
#include <linux/version.h>
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <asm/io.h>

#define VH_GET		_IO('h', 1)
#define VH_PORT		0x2f8

static int vh_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != VH_GET)
		return -ENOTTY;
	return inb(VH_PORT) + 1;
}

static int vh_aux_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd != VH_GET)
		return -ENOTTY;
	outb(arg, VH_PORT + 1);
	return 2;
}

#if LINUX_VERSION_CODE >= 0x02060b
static long vh_unlocked_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = vh_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}

static long vh_aux_unlocked_ioctl(struct file *file, unsigned int cmd,
				  unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = vh_aux_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
#endif

static struct file_operations vh_fops = {
	.owner		= THIS_MODULE,
#if LINUX_VERSION_CODE >= 0x02060b
	.unlocked_ioctl	= vh_unlocked_ioctl,
#else
	.ioctl		= vh_ioctl,
#endif
};

static struct file_operations vh_aux_fops = {
	.owner		= THIS_MODULE,
#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,11)
	.ioctl		= vh_aux_ioctl,
#else
	.unlocked_ioctl	= vh_aux_unlocked_ioctl,
#endif
};

static struct miscdevice vh_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_ver_hex",
	.fops	= &vh_fops,
};

static struct miscdevice vh_aux_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_ver_hex_aux",
	.fops	= &vh_aux_fops,
};

static int __init vh_init(void)
{
	int err = misc_register(&vh_misc);

	if (err)
		return err;
	return misc_register(&vh_aux_misc);
}
module_init(vh_init);
MODULE_LICENSE("GPL");
