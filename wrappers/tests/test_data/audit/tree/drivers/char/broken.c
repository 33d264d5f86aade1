/* Not C that spatch can parse: the audit must say it skipped this file. */
#include <linux/fs.h>

static struct file_operations broken_fops = {
	.ioctl = broken_ioctl,
	.open = ) ( ] [,
};
