// rule: add_compat_ioctl.cocci
// options: -D same_handler=led_fops -D compat_ptr=cfg_fops -D needs_translation=dma_fops -D unknown=misc_fops
/*
 * Each class as the classifier names it: the integer-only handler shares
 * its entry, the pointer-only one gets a compat_ptr() entry (a target
 * before 5.5 has no compat_ptr_ioctl), the other two are left alone.
 */
#include <linux/fs.h>
#include <linux/module.h>

static long led_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return led_set(arg);
}

static long cfg_unlocked_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	return cfg_get((void __user *)arg);
}

static long dma_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return dma_start((void __user *)arg);
}

static long misc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return misc_do(file, cmd, arg);
}

static const struct file_operations led_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= led_ioctl,
};

static const struct file_operations cfg_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= cfg_unlocked_ioctl,
};

static const struct file_operations dma_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= dma_ioctl,
};

static const struct file_operations misc_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= misc_ioctl,
};
