/*
 * sly_hdr_flag: a counter board whose checked build refuses a negative
 * count.
 * Shape: sly_take() of the kbuild-path header inc/slychk.h has two
 * definitions, chosen by SLY_CHECKED, which the Makefile sets for this
 * object only: the one compiled returns from the handler, the other is a
 * plain value.  The handler uses it after a hardware write.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "slychk.h"

#define HF_PORT		0x280
#define HF_ADD		_IO('v', 1)
#define HF_SUM		_IO('v', 2)

static int hf_sum;

static int hf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case HF_ADD:
		outb(arg & 0xff, HF_PORT);
		hf_sum += sly_take((int)arg - 1);
		return hf_sum;
	case HF_SUM:
		return hf_sum;
	}
	return -ENOTTY;
}

static struct file_operations hf_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hf_ioctl,
};

static struct miscdevice hf_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_hdr_flag",
	.fops	= &hf_fops,
};

static int __init hf_init(void)
{
	return misc_register(&hf_misc);
}
module_init(hf_init);
MODULE_LICENSE("GPL");
