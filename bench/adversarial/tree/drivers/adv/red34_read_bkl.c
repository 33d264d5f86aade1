/*
 * red34_read_bkl: a status register served by read() as well as ioctl();
 * read takes the BKL itself so that it excludes the ioctl, as the VFS
 * gave the ioctl the BKL.
 * Shape: .read calls the .ioctl handler between lock_kernel() and
 * unlock_kernel() of its own; the handler's commands read-modify-write
 * shared state and the hardware.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define RB_PORT		0x370
#define RB_GET		_IO('z', 0x71)
#define RB_ADD		_IO('z', 0x72)

static int rb_total;

static int rb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RB_GET:
		return rb_total + inb(RB_PORT);
	case RB_ADD:
		rb_total += arg;
		outb(rb_total, RB_PORT);
		return rb_total;
	}
	return -ENOTTY;
}

static ssize_t rb_read(struct file *file, char __user *buf, size_t len,
		       loff_t *ppos)
{
	int v;
	char c;

	if (len < 1)
		return 0;
	lock_kernel();
	v = rb_ioctl(file->f_dentry->d_inode, file, RB_GET, 0);
	unlock_kernel();
	c = v;
	if (copy_to_user(buf, &c, 1))
		return -EFAULT;
	return 1;
}

static struct file_operations rb_fops = {
	.owner	= THIS_MODULE,
	.read	= rb_read,
	.ioctl	= rb_ioctl,
};

static struct miscdevice rb_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_read_bkl",
	.fops	= &rb_fops,
};

static int __init rb_init(void)
{
	return misc_register(&rb_misc);
}
module_init(rb_init);
MODULE_LICENSE("GPL");
