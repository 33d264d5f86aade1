/*
 * red33_ioc_table: a sensor hub that dispatches by command number through
 * a table of handlers with the legacy signature, from its .ioctl and from
 * its .compat_ioctl, and lists its own .ioctl in a second table.
 * Shape: static int (*const tab[])(struct inode *, struct file *,
 * unsigned int, unsigned long) = { ... } indexed by _IOC_NR(cmd); the
 * compat handler calls the same table under lock_kernel(); a table
 * through which a control node reaches the legacy .ioctl itself.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <asm/io.h>

#define IT_TEMP		_IO('t', 0)
#define IT_FAN		_IO('t', 1)
#define IT_CTL		_IO('t', 7)
#define IT_PORT		0x2e0

typedef int (*it_op_t)(struct inode *, struct file *, unsigned int,
		       unsigned long);

static int it_temp(struct inode *inode, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return inb(IT_PORT) + 1;
}

static int it_fan(struct inode *inode, struct file *file,
		  unsigned int cmd, unsigned long arg)
{
	outb(arg, IT_PORT + 1);
	return inb(IT_PORT + 1);
}

static int (*const it_ops[])(struct inode *, struct file *, unsigned int,
			     unsigned long) = {
	it_temp,
	it_fan,
};

static int it_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != IT_TEMP && cmd != IT_FAN)
		return -ENOTTY;
	if (_IOC_NR(cmd) >= ARRAY_SIZE(it_ops))
		return -ENOTTY;
	return it_ops[_IOC_NR(cmd)](inode, file, cmd, arg);
}

#ifdef HAVE_COMPAT_IOCTL
static long it_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	long ret = -ENOTTY;

	lock_kernel();
	if (cmd == IT_TEMP || cmd == IT_FAN)
		ret = it_ops[_IOC_NR(cmd)](file->f_dentry->d_inode, file,
					   cmd, arg);
	unlock_kernel();
	return ret;
}
#endif

static const it_op_t it_nodes[] = { it_ioctl };

static int it_ctl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd != IT_CTL)
		return -ENOTTY;
	return it_nodes[0](inode, file, IT_TEMP, 0) * 2;
}

static struct file_operations it_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= it_ioctl,
#ifdef HAVE_COMPAT_IOCTL
	.compat_ioctl	= it_compat_ioctl,
#endif
};

static struct file_operations it_ctl_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= it_ctl_ioctl,
};

static struct miscdevice it_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_ioc_table",
	.fops	= &it_fops,
};

static struct miscdevice it_ctl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_ioc_ctl",
	.fops	= &it_ctl_fops,
};

static int __init it_init(void)
{
	int err = misc_register(&it_misc);

	if (err)
		return err;
	return misc_register(&it_ctl_misc);
}
module_init(it_init);
MODULE_LICENSE("GPL");
