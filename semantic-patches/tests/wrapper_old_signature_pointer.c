// options: -D inode_f_dentry
// variant pushdown: -D pushdown
// variant mutex: -D mutex
/*
 * A handler also held in a function pointer of its old signature (the
 * shape of bench/adversarial red_mx_init_ptr): a pointer declared then
 * assigned, one initialised, one of a typedef'd type, an array of
 * pointers.  Under the BKL it takes the wrapper that keeps its signature
 * and passes the inode, as the VFS did, so every pointer still holds the
 * function it held.  Pushdown would change the type the pointers hold:
 * refused; under the private mutex a call through the pointer would run
 * the body without it: refused.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <asm/io.h>

typedef int (*sens_op_t)(struct inode *, struct file *, unsigned int,
			 unsigned long);

static int sens_last;

static int sens_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	sens_last = inb(0x308);
	return sens_last;
}

static int gain_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? sens_last : -ENOTTY;
}

static int tone_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return inode ? 0 : -ENODEV;
}

static int mix_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int (*sens_probes[])(struct inode *, struct file *, unsigned int,
			    unsigned long) = { mix_ioctl };

static struct file_operations sens_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sens_ioctl,
};

static struct file_operations gain_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= gain_ioctl,
};

static struct file_operations tone_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= tone_ioctl,
};

static struct file_operations mix_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= mix_ioctl,
};

static int __init sens_init(void)
{
	int (*probe)(struct inode *, struct file *, unsigned int, unsigned long);
	int (*again)(struct inode *, struct file *, unsigned int,
		     unsigned long) = gain_ioctl;
	sens_op_t typed = tone_ioctl;

	probe = sens_ioctl;
	if (probe(NULL, NULL, 0, 0) < 0 || again(NULL, NULL, 1, 0) < 0)
		return -ENODEV;
	return typed(NULL, NULL, 0, 0) + sens_probes[0](NULL, NULL, 0, 0);
}
module_init(sens_init);
