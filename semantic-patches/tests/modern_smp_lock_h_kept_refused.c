// options: -D mutex -D no_bkl
/*
 * Nothing is converted (the handler writes its inode parameter, so it is
 * refused): the file is not touched at all, its header included.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/smp_lock.h>

static int knob_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	inode = file->f_dentry->d_inode;
	return inode ? 0 : -ENODEV;
}

static struct file_operations knob_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= knob_ioctl,
};
