/*
 * A file_operations written as a compound literal: assigned, in a
 * structure's initializer, and passed to a call.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/miscdevice.h>

static int lit_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static int lit2_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int lit3_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct miscdevice lit_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "lit",
	.fops = &(const struct file_operations){
		.owner = THIS_MODULE,
		.ioctl = lit_ioctl,	/* entry */
	},
};

static struct miscdevice lit2_misc;

static int __init lit_init(void)
{
	lit2_misc.fops = &(struct file_operations) { .ioctl = lit2_ioctl };	/* entry */
	misc_register(&lit2_misc);
	return register_chrdev(0, "lit3", &(struct file_operations){
		owner: THIS_MODULE,
		ioctl: lit3_ioctl,	/* entry */
	});
}
