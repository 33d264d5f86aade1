/*
 * red_mx_mutual: a mixer and a tone generator of one card whose nodes
 * pass commands to each other by calling each other's handler.
 * Shape: two handlers of two fops of one file call each other directly
 * (A -> B for one command, B -> A for another), each through a
 * prototype.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RMM_VOL		_IO('j', 1)
#define RMM_TONE	_IO('j', 2)
#define RMM_PORT	0x300

static int rmm_tone_ioctl(struct inode *, struct file *, unsigned int, unsigned long);

static int rmm_vol;

static int rmm_mix_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd == RMM_TONE)
		return rmm_tone_ioctl(inode, file, cmd, arg) + 100;
	if (cmd != RMM_VOL)
		return -ENOTTY;
	rmm_vol = arg;
	outb(arg, RMM_PORT);
	return rmm_vol;
}

static int rmm_tone_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd == RMM_VOL)
		return rmm_mix_ioctl(inode, file, cmd, arg) + 200;
	if (cmd != RMM_TONE)
		return -ENOTTY;
	outb(arg, RMM_PORT + 1);
	return inb(RMM_PORT + 1);
}

static struct file_operations rmm_mix_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rmm_mix_ioctl,
};

static struct file_operations rmm_tone_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rmm_tone_ioctl,
};

static struct miscdevice rmm_mix_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mx_mix",
	.fops	= &rmm_mix_fops,
};

static struct miscdevice rmm_tone_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mx_tone",
	.fops	= &rmm_tone_fops,
};

static int __init rmm_init(void)
{
	int err = misc_register(&rmm_mix_misc);

	return err ? err : misc_register(&rmm_tone_misc);
}
module_init(rmm_init);
MODULE_LICENSE("GPL");
