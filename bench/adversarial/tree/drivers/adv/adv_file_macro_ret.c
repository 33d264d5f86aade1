/*
 * adv_file_macro_ret: argument checks by statement macros of the file.
 * Shape: lower-case macros of the .c file itself that return (a bare if,
 * and one with a comma expression), used in several cases.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>

#define need_arg(a)	if (!(a)) return -EFAULT
#define need_cap(c)	if (!capable(c)) return (printk(KERN_ERR "adv: no cap\n"), -EPERM)

#define FM_SET	_IOW('f', 1, long)
#define FM_CLR	_IO('f', 2)
#define FM_GET	_IOR('f', 3, long)

static long fm_word;

static int fm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case FM_SET:
		need_cap(CAP_SYS_ADMIN);
		need_arg(arg);
		if (get_user(fm_word, (long __user *)arg))
			return -EFAULT;
		return 0;
	case FM_CLR:
		need_cap(CAP_SYS_ADMIN);
		fm_word = 0;
		return 0;
	case FM_GET:
		need_arg(arg);
		return put_user(fm_word, (long __user *)arg);
	}
	return -ENOTTY;
}

static struct file_operations fm_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fm_ioctl,
};

static struct miscdevice fm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_file_macro_ret",
	.fops	= &fm_fops,
};

static int __init fm_init(void)
{
	return misc_register(&fm_misc);
}
module_init(fm_init);
MODULE_LICENSE("GPL");
