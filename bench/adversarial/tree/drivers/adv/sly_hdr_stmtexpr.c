/*
 * sly_hdr_stmtexpr: a four-channel mixer whose channel number is checked
 * by an arch header.
 * Shape: a return hidden in a statement expression of <asm/sly_chk.h>,
 * reached through a second macro of that header (sly_chan ->
 * __sly_bounded), used as a value in an argument list after a hardware
 * write, and as an if condition after a shared-state update.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <asm/sly_chk.h>

#define HS_PORT		0x2e0
#define HS_SELECT	_IO('x', 1)
#define HS_MUTE		_IO('x', 2)

static int hs_selected = -1;
static int hs_muted;

static int hs_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case HS_SELECT:
		outb(0xff, HS_PORT + 1);
		outb(sly_chan(arg), HS_PORT);
		hs_selected = (int)arg;
		return 0;
	case HS_MUTE:
		hs_muted++;
		if (sly_chan(arg) == hs_selected)
			outb(0, HS_PORT);
		return hs_muted;
	}
	return -ENOTTY;
}

static struct file_operations hs_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hs_ioctl,
};

static struct miscdevice hs_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_hdr_stmtexpr",
	.fops	= &hs_fops,
};

static int __init hs_init(void)
{
	return misc_register(&hs_misc);
}
module_init(hs_init);
MODULE_LICENSE("GPL");
