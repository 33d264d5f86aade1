/*
 * st_rmw: st_good with the shared counter read before the lock (a lost update).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/smp_lock.h>
#include <linux/mutex.h>
#include <linux/delay.h>
#include <asm/io.h>

#define ST_READ		_IO('t', 1)
#define ST_TAKE		_IO('t', 2)
#define ST_WAIT		_IO('t', 3)
#define ST_DONE		_IO('t', 4)
#define ST_PORT		0x330

static int st_users, st_done;

static long st_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int users = st_users;	/* broken: read before the lock */
	long ret;

	lock_kernel();
	switch (cmd) {
	case ST_READ:
		if (arg == 3) {
			ret = -EINVAL;
			break;
		}
		ret = inb(ST_PORT);
		break;
	case ST_TAKE:
		st_users = users + 1;
		ret = st_users;
		break;
	case ST_WAIT:
		while (!st_done)
			msleep(10);
		ret = 1;
		break;
	case ST_DONE:
		st_done = 1;
		ret = 0;
		break;
	default:
		ret = -ENOTTY;
	}
	unlock_kernel();
	return ret;
}

static struct file_operations st_fops = {
	.owner	= THIS_MODULE,
	.unlocked_ioctl = st_ioctl,
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
