/*
 * A return whose expression copies to user space: it is evaluated under
 * the lock into a new "ret", then the lock is dropped.
 */
#include <linux/fs.h>
#include <asm/uaccess.h>

struct rtc_time_k {
	int tm_sec, tm_min, tm_hour;
};

#define RTC_RD_TIME	_IOR('p', 0x09, struct rtc_time_k)

static struct rtc_time_k rtc_now;

static int rtc_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (cmd != RTC_RD_TIME)
		return -ENOTTY;
	return copy_to_user(argp, &rtc_now, sizeof(rtc_now)) ? -EFAULT : 0;
}

static struct file_operations rtc_fops = {
	.ioctl		= rtc_ioctl,
};
