// options: -D mutex
// variant home: -D module_mutex=leds_ioctl_mutex -D module_mutex_home
// variant extern: -D module_mutex=leds_ioctl_mutex
// variant wrapper: -D module_mutex=leds_ioctl_mutex -D wrapper
/*
 * One file of a kbuild module whose other files have .ioctl handlers too
 * (leds-y := module_mutex.o leds_ctl.o): they share one mutex, the
 * module's, named by convert.  Without -D module_mutex the file keeps its
 * private static mutex; with it the file that defines the module's mutex
 * (-D module_mutex_home) has a non-static DEFINE_MUTEX, the others an
 * extern declaration where the definition would be.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define LED_SET		_IOW('L', 1, int)

int led_state;

static int led_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != LED_SET)
		return -ENOTTY;
	led_state = (int)arg;
	return 0;
}

static struct file_operations led_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= led_ioctl,
};
