/*
 * sly_goto_retry: a DMA engine whose start command is retried while the
 * engine reports busy.
 * Shape: the handler's first statement carries a label, and a macro of a
 * kbuild-path header (SLY_RETRY in inc/slylocal.h) jumps back to it from
 * inside the region the BKL covered: a lock taken after the label is
 * taken again at each retry.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "slylocal.h"

#define GR_PORT		0x2a0
#define GR_START	_IO('r', 1)
#define GR_STARTS	_IO('r', 2)

static int gr_starts;

static int gr_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int tries = 0;

again:
	if (cmd != GR_START && cmd != GR_STARTS)
		return -ENOTTY;
	if (cmd == GR_STARTS)
		return gr_starts;
	if (!(inb(GR_PORT) & 0x80)) {
		if (++tries < 6)
			SLY_RETRY(again);
		return -EBUSY;
	}
	outb(1, GR_PORT + 1);
	return ++gr_starts + tries;
}

static struct file_operations gr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= gr_ioctl,
};

static struct miscdevice gr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_goto_retry",
	.fops	= &gr_fops,
};

static int __init gr_init(void)
{
	return misc_register(&gr_misc);
}
module_init(gr_init);
MODULE_LICENSE("GPL");
