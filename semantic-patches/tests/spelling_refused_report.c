/*
 * Entries no rewriting rule can reach are reported with a reason, never
 * skipped: a handler named through a macro, and a positional (2.4 style)
 * initializer.  The tty_operations' .ioctl is none of ours.
 */
#include <linux/fs.h>
#include <linux/tty.h>

#define CAM(x) cam_##x

static int cam_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int old_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations cam_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= CAM(ioctl),
};

static struct file_operations old_fops = {
	THIS_MODULE,
	NULL,		/* llseek */
	NULL,		/* read */
	NULL,		/* aio_read */
	NULL,		/* write */
	NULL,		/* aio_write */
	NULL,		/* readdir */
	NULL,		/* poll */
	old_ioctl,	/* ioctl */
};

static struct tty_operations cam_tty_ops[] = {
	{ .ioctl = cam_tty_ioctl, },
};
