// Expected: null_inode_used_spellings.report.res (what report mode prints).
/*
 * A handler that uses its inode is refused when a caller passes NULL for
 * it in any spelling (0, a cast NULL, a cast 0): it may test for NULL,
 * and after conversion it would get the file's inode instead.
 */
#include <linux/fs.h>

static int wa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return inode ? iminor(inode) : -ENODEV;
}

static int wb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return inode ? iminor(inode) : -ENODEV;
}

static int wc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return inode ? iminor(inode) : -ENODEV;
}

static int w_probe(struct file *file)
{
	return wa_ioctl(0, file, 1, 0) + wb_ioctl((struct inode *)NULL, file, 1, 0) +
		wc_ioctl((struct inode *)0, file, 1, 0);
}

static struct file_operations wa_fops = { .ioctl = wa_ioctl, };
static struct file_operations wb_fops = { .ioctl = wb_ioctl, };
static struct file_operations wc_fops = { .ioctl = wc_ioctl, };
