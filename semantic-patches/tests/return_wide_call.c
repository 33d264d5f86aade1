/*
 * Values an int does not hold: a call of type unsigned long, a call of
 * type long, a ternary mixing an unsigned with an errno, a negated
 * unsigned.  The int handler returned each truncated to an int (the
 * errno stayed negative); each goes through an int temporary, never a
 * long one, so the long handler returns the same values.
 */
unsigned long wc_read_status();
long wc_count_since();
#include <linux/fs.h>

static unsigned int wc_level;
static unsigned int wc_error = EBUSY;

static int wc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case WC_STATUS:
		return wc_read_status(arg);
	case WC_COUNT:
		return wc_count_since(jiffies);
	case WC_LEVEL:
		return wc_level > 7 ? -EINVAL : wc_level;
	}
	return -wc_error;
}

static struct file_operations wc_fops = {
	.ioctl		= wc_ioctl,
};
