/*
 * red_mx_poll_bit: a DMA engine whose "wait" command sleeps until the
 * "done" command (from another process) clears a busy bit.
 * Shape: while (test_bit(0, &flags)) schedule_timeout(HZ / 50); the
 * shared state is a bit in a word, read and set only by bitops (START
 * sets it, DONE clears it).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/sched.h>
#include <asm/bitops.h>

#define RPB_START	_IO('l', 1)
#define RPB_DONE	_IO('l', 2)
#define RPB_WAIT	_IO('l', 3)

static unsigned long rpb_flags;

static int rpb_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RPB_START:
		set_bit(0, &rpb_flags);
		return 0;
	case RPB_DONE:
		clear_bit(0, &rpb_flags);
		return 0;
	case RPB_WAIT:
		while (test_bit(0, &rpb_flags))
			schedule_timeout(HZ / 50);
		return 1;
	}
	return -ENOTTY;
}

static struct file_operations rpb_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rpb_ioctl,
};

static struct miscdevice rpb_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_mx_poll_bit",
	.fops	= &rpb_fops,
};

static int __init rpb_init(void)
{
	return misc_register(&rpb_misc);
}
module_init(rpb_init);
MODULE_LICENSE("GPL");
