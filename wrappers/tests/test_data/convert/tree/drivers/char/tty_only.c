/* A tty driver: its .ioctl is tty_operations', never touched. */
#include <linux/fs.h>
#include <linux/tty.h>

static int t_ioctl(struct tty_struct *tty, struct file *file,
		   unsigned int cmd, unsigned long arg)
{
	return 0;
}

static struct file_operations t_unused_fops;

static struct tty_operations t_ops = {
	.ioctl		= t_ioctl,
};
