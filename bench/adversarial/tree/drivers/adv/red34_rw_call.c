/*
 * red34_rw_call: a register window whose read and write entries reuse the
 * ioctl handler's commands.
 * Shape: the .ioctl handler is also called by the file's .read (directly,
 * with file->f_dentry->d_inode) and by its .write through a macro of the
 * file (RW_DO(f, c, a)), so that the call with the legacy arguments is
 * written only in the macro's body.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define RW_GET		_IO('w', 0x81)
#define RW_SET		_IO('w', 0x82)
#define RW_PORT		0x2f0

static int rw_value;

static int rw_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RW_GET:
		return rw_value + inb(RW_PORT);
	case RW_SET:
		rw_value = arg;
		outb(arg, RW_PORT);
		return 0;
	}
	return -ENOTTY;
}

#define RW_DO(f, c, a)	rw_ioctl((f)->f_dentry->d_inode, (f), (c), (a))

static ssize_t rw_read(struct file *file, char __user *buf, size_t len,
		       loff_t *ppos)
{
	int v = rw_ioctl(file->f_dentry->d_inode, file, RW_GET, 0);
	char c = v;

	if (len < 1)
		return 0;
	if (copy_to_user(buf, &c, 1))
		return -EFAULT;
	return 1;
}

static ssize_t rw_write(struct file *file, const char __user *buf,
			size_t len, loff_t *ppos)
{
	char c;

	if (len < 1)
		return 0;
	if (copy_from_user(&c, buf, 1))
		return -EFAULT;
	RW_DO(file, RW_SET, c);
	return 1;
}

static struct file_operations rw_fops = {
	.owner	= THIS_MODULE,
	.read	= rw_read,
	.write	= rw_write,
	.ioctl	= rw_ioctl,
};

static struct miscdevice rw_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_rw_call",
	.fops	= &rw_fops,
};

static int __init rw_init(void)
{
	return misc_register(&rw_misc);
}
module_init(rw_init);
MODULE_LICENSE("GPL");
