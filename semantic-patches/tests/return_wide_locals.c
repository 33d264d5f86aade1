/*
 * Locals an int may not hold, returned as they are in the int handler:
 * a size_t, a long declared in an inner block, and a typedef of this
 * file (whatever it stands for, an int temporary converts it as the int
 * return did).  Each goes through the int temporary.  Locals an int
 * holds (an unsigned char, a short) are returned as they are.
 */
unsigned int wl_get_flags();
long wl_total();
int wl_last();
#include <linux/fs.h>

typedef unsigned int wl_flags_t;

static int wl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	size_t len = sizeof(wl_name) - 1;
	wl_flags_t flags = 0;
	unsigned char last = 0;
	short level = 0;

	switch (cmd) {
	case WL_LEN:
		return len;
	case WL_FLAGS:
		flags = wl_get_flags();
		return flags;
	case WL_BIG: {
		long big = wl_total();

		return big;
	}
	case WL_LAST:
		last = wl_last();
		return last;
	}
	return level;
}

static struct file_operations wl_fops = {
	.ioctl		= wl_ioctl,
};
