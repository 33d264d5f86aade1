// SPDX-License-Identifier: GPL-2.0
/*
 * pd_watchdog: a software watchdog that a timer feeds; an ioctl arms it
 * or reads how often it fired.
 *
 * Point: a port.  On a current kernel the legacy text stops at
 * <linux/smp_lock.h>; once the conversion drops it, the compiler reaches
 * API drift outside the ioctl path (init_timer() in the init function,
 * file->f_dentry in open), which `convert --kdir` must list and keep the
 * conversion for, not take as the conversion's fault.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#define PD_WATCHDOG_ARM		_IOW('w', 1, int)
#define PD_WATCHDOG_FIRED	_IOR('w', 2, int)

static struct timer_list pd_watchdog_timer;
static int pd_watchdog_fired;
static int pd_watchdog_armed;

static void pd_watchdog_bark(unsigned long data)
{
	pd_watchdog_fired++;
}

static int pd_watchdog_open(struct inode *inode, struct file *file)
{
	if (!S_ISCHR(file->f_dentry->d_inode->i_mode))
		return -ENODEV;
	return 0;
}

static int pd_watchdog_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	int __user *argp = (int __user *)arg;

	switch (cmd) {
	case PD_WATCHDOG_ARM:
		if (get_user(pd_watchdog_armed, argp))
			return -EFAULT;
		return 0;
	case PD_WATCHDOG_FIRED:
		return put_user(pd_watchdog_fired, argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations pd_watchdog_fops = {
	.owner	= THIS_MODULE,
	.open	= pd_watchdog_open,
	.ioctl	= pd_watchdog_ioctl,
};

static struct miscdevice pd_watchdog_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "pd_watchdog",
	.fops	= &pd_watchdog_fops,
};

static int __init pd_watchdog_init(void)
{
	init_timer(&pd_watchdog_timer);
	pd_watchdog_timer.function = pd_watchdog_bark;
	return misc_register(&pd_watchdog_dev);
}

static void __exit pd_watchdog_exit(void)
{
	del_timer_sync(&pd_watchdog_timer);
	misc_deregister(&pd_watchdog_dev);
}

module_init(pd_watchdog_init);
module_exit(pd_watchdog_exit);
MODULE_LICENSE("GPL");
