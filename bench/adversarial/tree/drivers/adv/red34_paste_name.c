/*
 * red34_paste_name: a driver whose every symbol carries its prefix through
 * one macro, as some vendor drivers did.
 * Shape: the handler's name is made by token pasting, in its definition
 * (static int PN_SYM(ioctl)(...)) and in its fops entry
 * (.ioctl = PN_SYM(ioctl)); a second fops names an alias macro of the file
 * (#define pn_ctl_ioctl pn_real_ctl) whose target is the handler.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define PN_SYM(x)	pn_##x
#define pn_ctl_ioctl	pn_real_ctl

#define PN_GET		_IO('x', 0xf1)
#define PN_PUT		_IO('x', 0xf2)

static int pn_value;

static int PN_SYM(ioctl)(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PN_GET:
		return pn_value;
	case PN_PUT:
		pn_value += arg;
		return 0;
	}
	return -ENOTTY;
}

static int pn_real_ctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	if (cmd != PN_GET)
		return -ENOTTY;
	return pn_value * 3;
}

static struct file_operations pn_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= PN_SYM(ioctl),
};

static struct file_operations pn_ctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= pn_ctl_ioctl,
};

static struct miscdevice pn_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_paste_name",
	.fops	= &pn_fops,
};

static struct miscdevice pn_ctl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_paste_ctl",
	.fops	= &pn_ctl_fops,
};

static int __init pn_init(void)
{
	int ret = misc_register(&pn_misc);

	return ret ? ret : misc_register(&pn_ctl_misc);
}
module_init(pn_init);
MODULE_LICENSE("GPL");
