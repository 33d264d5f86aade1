/*
 * st_busy_mutex: st_busy_legacy under a private mutex, converted as the
 * tool does: BUSY_SEND matches the legacy calls though no other command
 * runs in its sleeps; BUSY_WAIT gives up where the legacy call was kicked.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/delay.h>
#include <asm/io.h>

#define BUSY_SEND	_IO('u', 1)
#define BUSY_WAIT	_IO('u', 2)
#define BUSY_KICK	_IO('u', 3)
#define BUSY_PORT	0x3c0

static int busy_kicked;

static DEFINE_MUTEX(busy_mutex);

static int busy_locked(unsigned int cmd, unsigned long arg)
{
	int tries = 0;

	switch (cmd) {
	case BUSY_SEND:
		while (inb(BUSY_PORT) & 0x80) {
			if (++tries > 8)
				return -ETIMEDOUT;
			msleep(1);
		}
		outb(arg, BUSY_PORT + 1);
		return tries;
	case BUSY_WAIT:
		while (!busy_kicked) {
			if (++tries > 8)
				return -ETIMEDOUT;
			msleep(1);
		}
		busy_kicked = 0;
		return 0;
	case BUSY_KICK:
		busy_kicked = 1;
		return 0;
	}
	return -ENOTTY;
}

static long busy_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	mutex_lock(&busy_mutex);
	ret = busy_locked(cmd, arg);
	mutex_unlock(&busy_mutex);
	return ret;
}

static struct file_operations busy_fops = {
	.owner	= THIS_MODULE,
	.unlocked_ioctl = busy_ioctl,
};

static struct miscdevice busy_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "st_busy",
	.fops	= &busy_fops,
};

static int __init busy_init(void)
{
	return misc_register(&busy_misc);
}
module_init(busy_init);
MODULE_LICENSE("GPL");
