/*
 * Context mode marks each legacy .ioctl entry of a file_operations, and
 * nothing in other operations structures.
 */
#include <linux/fs.h>
#include <linux/tty.h>

static struct file_operations rtc_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= rtc_ioctl,
	.open		= rtc_open,
};

static struct tty_operations rtc_tty_ops = {
	.ioctl		= rtc_tty_ioctl,
};
