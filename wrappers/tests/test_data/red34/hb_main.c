/* hb_main: a misc device whose handler and fops are in a header of its own. */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include "hb_body.h"

static struct miscdevice hb_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "hb",
	.fops	= &hb_fops,
};

static int __init hb_init(void)
{
	return misc_register(&hb_misc);
}
module_init(hb_init);
MODULE_LICENSE("GPL");
