/*
 * adv_entry_macro: a family of boards sharing one fops template.
 * Shape: the entry written by a macro of the file
 * (#define EM_IOCTL .ioctl = em_ioctl,).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define EM_ID		_IO('M', 1)
#define EM_IOCTL	.ioctl = em_ioctl,
#define EM_COMMON	.owner = THIS_MODULE,

static int em_id = 3;

static int em_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == EM_ID)
		return em_id;
	return -ENOTTY;
}

static struct file_operations em_fops = {
	EM_COMMON
	EM_IOCTL
};

static struct miscdevice em_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_entry_macro",
	.fops	= &em_fops,
};

static int __init em_init(void)
{
	return misc_register(&em_misc);
}
module_init(em_init);
MODULE_LICENSE("GPL");
