/*
 * Only declarations of the outermost block run before lock_kernel():
 * one inside a case block that calls a function runs under the lock, so
 * auto still picks pushdown (the braces in the string and the character
 * constant must not confuse where the outermost block is).
 */
int led_read_state();
#include <linux/fs.h>
#include <linux/smp_lock.h>
void led_write_state();

#define LED_GET		_IOR('L', 1, int)
#define LED_SET		_IOW('L', 2, int)

static int led_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	char open_brace = '{';
	const char *fmt = "}}%d{";

	switch (cmd) {
	case LED_GET: {
		int state = led_read_state();

		return put_user(state, (int __user *)arg);
	}
	case LED_SET:
		led_write_state(arg, fmt, open_brace);
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations led_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= led_ioctl,
};
