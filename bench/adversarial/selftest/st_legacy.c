/*
 * st_legacy: the legacy driver of the harness's own test (test_vfsmodel).
 * Each st_*.c beside it is a conversion of it, correct or broken by hand.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <linux/delay.h>
#include <asm/io.h>

#define ST_READ		_IO('t', 1)
#define ST_TAKE		_IO('t', 2)
#define ST_WAIT		_IO('t', 3)
#define ST_DONE		_IO('t', 4)
#define ST_PORT		0x330

static int st_users, st_done;

static int st_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int users = st_users;

	switch (cmd) {
	case ST_READ:
		if (arg == 3)
			return -EINVAL;
		return inb(ST_PORT);
	case ST_TAKE:
		st_users = users + 1;
		return st_users;
	case ST_WAIT:
		while (!st_done)
			msleep(10);
		return 1;
	case ST_DONE:
		st_done = 1;
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations st_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= st_ioctl,
};

static struct miscdevice st_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "st",
	.fops	= &st_fops,
};

static int __init st_init(void)
{
	return misc_register(&st_misc);
}
module_init(st_init);
MODULE_LICENSE("GPL");
