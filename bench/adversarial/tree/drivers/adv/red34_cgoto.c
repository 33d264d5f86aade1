/*
 * red34_cgoto: a protocol engine whose error exits are chosen at run time,
 * longjmp-style.
 * Shape: GCC's labels as values: an exit picked into a local
 * (void *bail = &&out_busy;) and taken by a macro, CG_BAIL() = goto *bail,
 * from the middle of the work; the exits write the hardware and return.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define CG_PORT		0x330
#define CG_SEND		_IO('j', 0xe1)
#define CG_RECV		_IO('j', 0xe2)

#define CG_BAIL()	goto *bail

static int cg_sent;

static int cg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	void *bail = &&out_inval;

	if (cmd != CG_SEND && cmd != CG_RECV)
		return -ENOTTY;
	cg_sent++;
	if (cmd == CG_RECV)
		bail = &&out_busy;
	outb(arg, CG_PORT);
	if (arg > 2)
		CG_BAIL();
	return cg_sent;

out_busy:
	outb(0xff, CG_PORT + 1);
	return -EBUSY;
out_inval:
	cg_sent--;
	return -EINVAL;
}

static struct file_operations cg_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= cg_ioctl,
};

static struct miscdevice cg_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_cgoto",
	.fops	= &cg_fops,
};

static int __init cg_init(void)
{
	return misc_register(&cg_misc);
}
module_init(cg_init);
MODULE_LICENSE("GPL");
