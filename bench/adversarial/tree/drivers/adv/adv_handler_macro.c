/*
 * adv_handler_macro: two register windows with generated handlers.
 * Shape: legacy handlers defined by a macro of the file
 * (DEFINE_HM_IOCTL(name, port)).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define HM_PEEK	_IO('H', 1)
#define HM_POKE	_IO('H', 2)

#define DEFINE_HM_IOCTL(name, port)					\
static int name(struct inode *inode, struct file *file,		\
		unsigned int cmd, unsigned long arg)			\
{									\
	switch (cmd) {							\
	case HM_PEEK:							\
		return inb(port);					\
	case HM_POKE:							\
		outb(arg, port);					\
		return 0;						\
	}								\
	return -ENOTTY;							\
}

DEFINE_HM_IOCTL(hm_a_ioctl, 0x280)
DEFINE_HM_IOCTL(hm_b_ioctl, 0x288)

static struct file_operations hm_a_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hm_a_ioctl,
};

static struct file_operations hm_b_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hm_b_ioctl,
};

static struct miscdevice hm_a_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_hm_a",
	.fops	= &hm_a_fops,
};

static struct miscdevice hm_b_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_hm_b",
	.fops	= &hm_b_fops,
};

static int __init hm_init(void)
{
	int err = misc_register(&hm_a_misc);

	return err ? err : misc_register(&hm_b_misc);
}
module_init(hm_init);
MODULE_LICENSE("GPL");
