/*
 * The inode parameter is called ip and the file filp: the derived local
 * keeps the name ip and reads the inode of filp.
 */
#include <linux/fs.h>

static int ir_ioctl(struct inode *ip, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	unsigned int minor = iminor(ip);

	if (cmd == 2)
		return ip->i_ino;
	printk(KERN_DEBUG "ir minor %u\n", minor);
	return minor;
}

static struct file_operations ir_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= ir_ioctl,
};
