/*
 * A return under "#if 0" is never compiled: spatch does not see it, and
 * it is no exit.  Auto still picks pushdown.
 */
#include <linux/fs.h>
void rtc_read_time();

static int rtc_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != RTC_RD_TIME)
		return -ENOTTY;
#if 0
	if (!rtc_ready())
		return -EIO;
#endif
	rtc_read_time(arg);
	return 0;
}

static struct file_operations rtc_fops = {
	.ioctl		= rtc_ioctl,
};
