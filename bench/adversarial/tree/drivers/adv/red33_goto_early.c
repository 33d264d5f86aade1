/*
 * red33_goto_early: a relay card whose handler leaves through one exit
 * label, reached both by the checks before any shared state is touched and
 * from the middle of the work.
 * Shape: "goto out" from the parameter checks (before where a pushed-down
 * lock would go) and from after the hardware write; the code at out:
 * writes the hardware and a shared counter, so it needs the lock on every
 * path that reaches it.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define GE_SET		_IO('g', 1)
#define GE_GET		_IO('g', 2)
#define GE_PORT		0x2b8

static int ge_calls;
static int ge_state;

static int ge_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int ret;

	if (cmd != GE_SET && cmd != GE_GET) {
		ret = -ENOTTY;
		goto out;
	}
	if (arg > 15) {
		ret = -EINVAL;
		goto out;
	}
	ge_state = arg;
	outb(arg, GE_PORT);
	if (inb(GE_PORT) & 0x80) {
		ret = -EIO;
		goto out;
	}
	ret = cmd == GE_GET ? ge_state : 0;
out:
	ge_calls++;
	outb(ge_calls, GE_PORT + 1);
	return ret < 0 ? ret : ret + ge_calls;
}

static struct file_operations ge_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ge_ioctl,
};

static struct miscdevice ge_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_goto_early",
	.fops	= &ge_fops,
};

static int __init ge_init(void)
{
	return misc_register(&ge_misc);
}
module_init(ge_init);
MODULE_LICENSE("GPL");
