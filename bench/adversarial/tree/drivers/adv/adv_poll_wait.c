/*
 * adv_poll_wait: a conversion result that one command waits for with a
 * timeout and another posts.
 * Shape: wait_event_timeout() on driver state set by another ioctl, and an
 * ssleep() retry loop with a bound.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/wait.h>
#include <linux/delay.h>

#define PW_WAIT		_IO('W', 0x41)
#define PW_POST		_IO('W', 0x42)
#define PW_ARMWAIT	_IO('W', 0x43)
#define PW_ARM		_IO('W', 0x44)

static DECLARE_WAIT_QUEUE_HEAD(pw_wq);
static int pw_result, pw_armed;

static int pw_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int tries;

	switch (cmd) {
	case PW_WAIT:
		if (!wait_event_timeout(pw_wq, pw_result != 0, 5 * HZ))
			return -ETIMEDOUT;
		return pw_result;
	case PW_POST:
		pw_result = (int)(arg & 0xff) + 1;
		wake_up(&pw_wq);
		return 0;
	case PW_ARMWAIT:
		for (tries = 0; tries < 20; tries++) {
			if (pw_armed)
				return tries;
			ssleep(1);
		}
		return -EAGAIN;
	case PW_ARM:
		pw_armed = 1;
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations pw_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= pw_ioctl,
};

static struct miscdevice pw_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_poll_wait",
	.fops	= &pw_fops,
};

static int __init pw_init(void)
{
	return misc_register(&pw_misc);
}
module_init(pw_init);
MODULE_LICENSE("GPL");
