// options: -D wrapper
/*
 * -D wrapper: the body keeps its name and loses the inode; a new
 * nvram_unlocked_ioctl takes the lock around it, as upstream did for
 * ds1620 and viotape.
 */
#include <linux/fs.h>
#include <asm/uaccess.h>

#define NVRAM_INIT	_IO('p', 0x40)
#define NVRAM_SETCKS	_IO('p', 0x41)

static int nvram_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case NVRAM_INIT:
		if (!capable(CAP_SYS_ADMIN))
			return -EACCES;
		nvram_clear();
		return 0;
	case NVRAM_SETCKS:
		nvram_set_checksum();
		return 0;
	default:
		return -ENOTTY;
	}
}

static struct file_operations nvram_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= nvram_ioctl,
};
