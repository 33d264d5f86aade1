/*
 * red_fwd_not_default: a console-like layer that forwards only to lower
 * drivers that did not leave the generic handler in place.
 * Shape: if (lf->f_op->ioctl != rnd_generic_ioctl) ... forward, else run
 * the generic handler directly (the "!= tty_ioctl" test), the lower
 * fops of the same file.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RND_SPECIAL	_IO('z', 1)
#define RND_COMMON	_IO('z', 2)
#define RND_PORT	0x338

static int rnd_generic_ioctl(struct inode *inode, struct file *file,
			     unsigned int cmd, unsigned long arg)
{
	return cmd == RND_COMMON ? 1 : -ENOIOCTLCMD;
}

static int rnd_card_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd == RND_SPECIAL) {
		outb(arg, RND_PORT);
		return 2;
	}
	return rnd_generic_ioctl(inode, file, cmd, arg);
}

static struct file_operations rnd_card_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rnd_card_ioctl,
};

static struct file rnd_lf = { .f_op = &rnd_card_fops };

static int rnd_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct file *lf = &rnd_lf;
	int ret;

	if (lf->f_op->ioctl != rnd_generic_ioctl)
		ret = lf->f_op->ioctl(inode, lf, cmd, arg);
	else
		ret = rnd_generic_ioctl(inode, file, cmd, arg);
	return ret == -ENOIOCTLCMD ? -ENOTTY : ret;
}

static struct file_operations rnd_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rnd_ioctl,
};

static struct miscdevice rnd_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_not_default",
	.fops	= &rnd_fops,
};

static int __init rnd_init(void)
{
	return misc_register(&rnd_misc);
}
module_init(rnd_init);
MODULE_LICENSE("GPL");
