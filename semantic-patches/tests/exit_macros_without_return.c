/*
 * Macros that do not return: one of the driver's header, one whose only
 * "return" is in a string and a comment, and a returning macro that only
 * another function uses.  Every exit of the handler is visible, so auto
 * still picks pushdown.
 */
#include <linux/fs.h>
#include "exit_macros_without_return.h"

#define LED_NOTE(msg)	printk(KERN_INFO "led: return " msg) /* no return */
#define LED_BAIL(x)	do { if (x) return; } while (0)

static void led_poll(struct led *led)
{
	LED_BAIL(!led->on);
	led_refresh(led);
}

static int led_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct led *led = file->private_data;

	LED_CHECK(led);
	LED_DEBUG("cmd %u\n", cmd);
	LED_NOTE("ioctl");
	if (cmd != LED_SET)
		return -ENOTTY;
	led_poll(led);
	return 0;
}

static struct file_operations led_fops = {
	.ioctl		= led_ioctl,
};
