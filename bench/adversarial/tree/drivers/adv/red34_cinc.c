/*
 * red34_cinc: a gated shutter whose board header is chosen by a macro.
 * Shape: "#include R34_BOARD_H" (a computed include: the name of the tree
 * header linux/r34gate.h is a string macro of the file, found through the
 * include path); its macros return from
 * the handler after the first write to shared state (r34_gate_open(), and
 * the statement expression r34_gate_read()).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

/* quoted: "linux" is a predefined macro in a computed <...> name */
#define R34_BOARD_H	"linux/r34gate.h"
#include R34_BOARD_H

#define CI_SHUT		_IO('c', 0x51)
#define CI_PEEK		_IO('c', 0x52)

static int ci_count;

static int ci_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int v;

	ci_count++;
	switch (cmd) {
	case CI_SHUT:
		outb(arg, R34GATE_PORT);
		return 0;
	case CI_PEEK:
		r34_gate_open();
		v = r34_gate_read(1);
		return v + ci_count;
	}
	return -ENOTTY;
}

static struct file_operations ci_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ci_ioctl,
};

static struct miscdevice ci_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_cinc",
	.fops	= &ci_fops,
};

static int __init ci_init(void)
{
	return misc_register(&ci_misc);
}
module_init(ci_init);
MODULE_LICENSE("GPL");
