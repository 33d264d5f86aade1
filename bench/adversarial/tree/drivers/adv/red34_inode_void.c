/*
 * red34_inode_void: a buzzer whose handler silences the unused-parameter
 * warning of its inode, and checks it in a debug assertion.
 * Shape: the inode is named only by "(void)inode;" and by
 * "BUG_ON(inode == NULL)" in the handler; a second handler names it only
 * in "(void)inode;".
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/bug.h>
#include <asm/io.h>

#define IV_PORT		0x350
#define IV_BEEP		_IO('b', 0x41)

static int iv_beeps;

static int iv_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	(void)inode;
	if (cmd != IV_BEEP)
		return -ENOTTY;
	BUG_ON(inode == NULL);
	outb(arg, IV_PORT);
	return ++iv_beeps;
}

static int iv_quiet_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	(void)inode;
	(void)arg;
	return cmd == IV_BEEP ? iv_beeps : -ENOTTY;
}

static struct file_operations iv_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= iv_ioctl,
};

static struct file_operations iv_quiet_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= iv_quiet_ioctl,
};

static struct miscdevice iv_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_inode_void",
	.fops	= &iv_fops,
};

static struct miscdevice iv_quiet_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_inode_quiet",
	.fops	= &iv_quiet_fops,
};

static int __init iv_init(void)
{
	int ret = misc_register(&iv_misc);

	return ret ? ret : misc_register(&iv_quiet_misc);
}
module_init(iv_init);
MODULE_LICENSE("GPL");
