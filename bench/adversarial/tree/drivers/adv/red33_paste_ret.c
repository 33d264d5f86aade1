/*
 * red33_paste_ret: a DSP board whose per-direction guards are chosen by
 * token pasting.
 * Shape: GUARD(RD) expands to R33_RD_CHECK() of the kbuild-path header
 * inc/red33local.h, a macro that returns; the name R33_RD_CHECK is never
 * written in this file.  A second spelling pastes the whole call
 * (RUN_GUARD(WR, CHECK)).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include "red33local.h"

#define PR_READ		_IO('q', 1)
#define PR_WRITE	_IO('q', 2)
#define PR_PORT		0x2a0

#define GUARD(dir)		R33_##dir##_CHECK()
#define RUN_GUARD(dir, what)	R33_##dir##_##what()

static int pr_count;

static int pr_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	pr_count++;
	switch (cmd) {
	case PR_READ:
		GUARD(RD);
		return inb(PR_PORT + 1) + pr_count;
	case PR_WRITE:
		outb(arg, PR_PORT + 2);
		RUN_GUARD(WR, CHECK);
		outb(arg, PR_PORT + 3);
		return pr_count;
	}
	return -ENOTTY;
}

static struct file_operations pr_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= pr_ioctl,
};

static struct miscdevice pr_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red33_paste_ret",
	.fops	= &pr_fops,
};

static int __init pr_init(void)
{
	return misc_register(&pr_misc);
}
module_init(pr_init);
MODULE_LICENSE("GPL");
