/* The fops of a handler defined in another file: resolved in phase 2. */
#include <linux/fs.h>
#include "nwflash.h"

static const struct file_operations flash_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= flash_ioctl,
};
