/*
 * red_read_getter: a sequence number served through a small accessor.
 * Shape: a declaration initializer that calls a static inline getter of
 * the file which reads a global (unsigned int seq = rrg_seq_get();), and
 * a setter that writes it back; and a second initializer that reads a
 * global through a pointer (int lim = *rrg_limit;).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define RRG_NEXT	_IO('w', 1)

static unsigned int rrg_seq;
static int rrg_max = 1000;
static int *rrg_limit = &rrg_max;

static inline unsigned int rrg_seq_get(void)
{
	return rrg_seq;
}

static inline void rrg_seq_set(unsigned int v)
{
	rrg_seq = v;
}

static int rrg_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	unsigned int seq = rrg_seq_get();
	int lim = *rrg_limit;

	if (cmd != RRG_NEXT)
		return -ENOTTY;
	if (seq >= lim)
		return -ENOSPC;
	rrg_seq_set(seq + 1);
	return seq;
}

static struct file_operations rrg_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rrg_ioctl,
};

static struct miscdevice rrg_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_read_getter",
	.fops	= &rrg_fops,
};

static int __init rrg_init(void)
{
	return misc_register(&rrg_misc);
}
module_init(rrg_init);
MODULE_LICENSE("GPL");
