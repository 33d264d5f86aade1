/*
 * red_fwd_compare_own: a driver that tells its fast and slow nodes apart
 * by the handler in the file's fops.
 * Shape: if (file->f_op->ioctl == rco_fast_ioctl) inside a shared helper,
 * and a != test against a default handler of the file; no call through
 * the member, only comparisons.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RCO_MODE	_IO('e', 1)
#define RCO_PORT	0x3c8

static int rco_fast_ioctl(struct inode *, struct file *, unsigned int, unsigned long);
static int rco_slow_ioctl(struct inode *, struct file *, unsigned int, unsigned long);

static int rco_mode(struct file *file)
{
	if (file->f_op->ioctl == rco_fast_ioctl)
		return 1;
	if (file->f_op && file->f_op->ioctl != rco_slow_ioctl)
		return 3;
	return 2;
}

static int rco_fast_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd != RCO_MODE)
		return -ENOTTY;
	outb(1, RCO_PORT);
	return rco_mode(file);
}

static int rco_slow_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd != RCO_MODE)
		return -ENOTTY;
	outb(2, RCO_PORT);
	return rco_mode(file) * 10;
}

static struct file_operations rco_fast_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rco_fast_ioctl,
};

static struct file_operations rco_slow_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rco_slow_ioctl,
};

static struct miscdevice rco_fast_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_cmp_fast",
	.fops	= &rco_fast_fops,
};

static struct miscdevice rco_slow_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_cmp_slow",
	.fops	= &rco_slow_fops,
};

static int __init rco_init(void)
{
	int err = misc_register(&rco_fast_misc);

	return err ? err : misc_register(&rco_slow_misc);
}
module_init(rco_init);
MODULE_LICENSE("GPL");
