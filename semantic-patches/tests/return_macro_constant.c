/*
 * spatch takes a returned name in capitals for a constant.  A macro of
 * the file that computes (it reads the device, names the inode or casts
 * to unsigned) is evaluated under the lock, through the int temporary;
 * an errno, a macro of the file that is an int literal and a small
 * literal stay constants, returned after the unlock.  A literal an int
 * does not hold goes through the temporary too.
 */
int mc_reset();
#include <linux/fs.h>

#define MC_OK		0
#define MC_MINOR	(iminor(inode))
#define MC_STATUS	(inb(MC_PORT) & 0x80)
#define MC_FAILED	((unsigned)-EIO)

static int mc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MC_GET_MINOR:
		return MC_MINOR;
	case MC_GET_STATUS:
		return MC_STATUS;
	case MC_RESET:
		if (mc_reset())
			return MC_FAILED;
		return MC_OK;
	case MC_MAGIC:
		return 0xfffffff2;
	case MC_VERSION:
		return 0x0206;
	}
	return -ENOTTY;
}

static struct file_operations mc_fops = {
	.ioctl		= mc_ioctl,
};
