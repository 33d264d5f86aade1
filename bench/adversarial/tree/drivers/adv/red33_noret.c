/*
 * red33_noret: a watchdog-like card that gives up hard on a bad state.
 * Shape: a noreturn helper of the file declared with
 * __attribute__((noreturn)) and one with __attribute__((__noreturn__)),
 * each the last statement of a case (no break, no return after it);
 * do_exit() as the last statement of another case; BUG_ON() on a
 * condition as the last statement of a case that then falls through.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/bug.h>
#include <asm/io.h>

#define NR_PING		_IO('N', 1)
#define NR_STOP		_IO('N', 2)
#define NR_HALT		_IO('N', 3)
#define NR_QUIT		_IO('N', 4)
#define NR_CHECK	_IO('N', 5)
#define NR_PORT		0x2c8

static void nr_fatal(const char *why) __attribute__((noreturn));
static void nr_stop_hw(int code) __attribute__((__noreturn__));

static int nr_pings;

static void nr_fatal(const char *why)
{
	outb(0xff, NR_PORT);
	panic("red33_noret: %s", why);
}

static void nr_stop_hw(int code)
{
	outb(code, NR_PORT + 1);
	BUG();
}

static int nr_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	nr_pings++;
	switch (cmd) {
	case NR_PING:
		return inb(NR_PORT) + nr_pings;
	case NR_STOP:
		if (arg != 3)
			return -EINVAL;
		nr_fatal("stop");
	case NR_HALT:
		if (arg)
			return -EINVAL;
		nr_stop_hw(nr_pings);
	case NR_QUIT:
		if (arg != 3)
			return -EPERM;
		outb(1, NR_PORT + 2);
		do_exit(arg);
	case NR_CHECK:
		BUG_ON(arg == 3);
	default:
		break;
	}
	return -ENOTTY;
}

static struct file_operations nr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= nr_ioctl,
};

static struct miscdevice nr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_noret",
	.fops	= &nr_fops,
};

static int __init nr_init(void)
{
	return misc_register(&nr_misc);
}
module_init(nr_init);
MODULE_LICENSE("GPL");
