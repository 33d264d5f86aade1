/*
 * adv_fsx_file: the file.c of adv_fsx.ko; the fops names the handler of
 * adv_fsx_ioctl.c.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "adv_fsx.h"

static struct file_operations fsx_file_operations = {
	.owner	= THIS_MODULE,
	.ioctl	= fsx_ioctl,
};

static struct miscdevice fsx_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_fsx",
	.fops	= &fsx_file_operations,
};

static int __init fsx_init(void)
{
	return misc_register(&fsx_misc);
}
module_init(fsx_init);
MODULE_LICENSE("GPL");
