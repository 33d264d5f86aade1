/*
 * red33_stmt_arg: a tape changer whose argument checks are one macro that
 * runs the statement it is given (CHECK(cond, return -EINVAL)).
 * Shape: the returns of the handler are written only as macro arguments:
 * CHECK(x, return -EINVAL), ON_FAIL(x, goto out) and a two-statement
 * argument (ret = -EIO; break), after a hardware write.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define SA_LOAD		_IO('k', 1)
#define SA_EJECT	_IO('k', 2)
#define SA_STATUS	_IO('k', 3)
#define SA_PORT		0x2b0

#define CHECK(cond, stmt)	do { if (cond) { stmt; } } while (0)
#define ON_FAIL(cond, stmt)	if (cond) stmt

static int sa_loaded;

static int sa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int ret = 0;

	outb(1, SA_PORT);
	CHECK(arg > 7, return -EINVAL);
	switch (cmd) {
	case SA_LOAD:
		ON_FAIL(sa_loaded, goto out);
		outb(arg, SA_PORT + 1);
		sa_loaded = 1;
		ret = arg;
		break;
	case SA_EJECT:
		CHECK(!sa_loaded, ret = -ENXIO; break);
		outb(0, SA_PORT + 1);
		sa_loaded = 0;
		break;
	case SA_STATUS:
		ret = inb(SA_PORT) + sa_loaded;
		break;
	default:
		ret = -ENOTTY;
	}
out:
	outb(0, SA_PORT);
	return ret;
}

static struct file_operations sa_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sa_ioctl,
};

static struct miscdevice sa_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_stmt_arg",
	.fops	= &sa_fops,
};

static int __init sa_init(void)
{
	return misc_register(&sa_misc);
}
module_init(sa_init);
MODULE_LICENSE("GPL");
