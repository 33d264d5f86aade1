/*
 * The last #include is under #ifdef: the new header goes after the last
 * one every configuration compiles.
 */
int dial_set();
#include <linux/fs.h>
#include <linux/module.h>
#ifdef CONFIG_DIAL_DEBUG
#include <linux/debugfs.h>
#endif

static int dial_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return dial_set(cmd, arg);
}

static struct file_operations dial_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= dial_ioctl,
};
