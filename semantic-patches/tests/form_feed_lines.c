/*
 * Old drivers separate sections with form feeds (^L).  Python's
 * splitlines() counts one as a line break and spatch does not, so the
 * early call below was once looked for on the wrong line and missed:
 * it must be found, and split so that it runs under the lock.
 */
char *tape_name();
int tape_rewind();
#include <linux/fs.h>



#define TAPE_REWIND	_IO('t', 1)


static int tape_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct tape *tp = file->private_data;
	char *name = tape_name(tp);

	if (cmd != TAPE_REWIND)
		return -ENOTTY;
	printk(KERN_DEBUG "%s: rewind\n", name);
	return tape_rewind(tp);
}

static struct file_operations tape_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= tape_ioctl,
};
