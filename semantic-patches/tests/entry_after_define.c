/*
 * A fops right after a #define whose body ends in neither ";" nor "}":
 * do { } while (0) on one line, a continued macro that returns, and two
 * statements.  Each entry follows its converted handler; reading the
 * declaration's type back to the last ";" or "}" would take the macro's
 * tail for part of it and leave the entry naming a changed function.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return cmd == LAMP_ON ? 0 : -ENOTTY;
}

#define LAMP_SET(v)	do { lamp_state = (v); } while (0)

static struct file_operations lamp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_ioctl,
};

static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

#define DIAL_PRINT(fmt, args...)				\
	do {							\
		*len += sprintf(buffer + *len, fmt, ##args);	\
		if (*len > size)				\
			return 0;				\
	} while (0)

static struct file_operations dial_fops[] = {
	{ .ioctl = dial_ioctl, },
};

static int bell_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

#define BELL_RING(n)	bell_count += (n); bell_kick(n)

struct file_operations bell_fops = {
	ioctl:		bell_ioctl,
};
