/*
 * The handler and one #include are under the same #ifdef, after an
 * #include every configuration compiles: the new header goes after that
 * one, where spatch can add it, not after the #include inside the #ifdef.
 */
int horn_blow();
#include <linux/module.h>

#ifdef CONFIG_HORN
#include <linux/fs.h>

static int horn_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return horn_blow(cmd);
}

static struct file_operations horn_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= horn_ioctl,
};
#endif
