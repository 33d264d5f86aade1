/*
 * red_fwd_priv_ops: a multiplexer whose channels keep a pointer to the
 * fops of their backend in a private structure.
 * Shape: ch->ops->ioctl(inode, file, cmd, arg) where ops is a member
 * of a private struct (no struct file in the chain), passing the
 * caller's own inode and file.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RPO_SEL		_IO('c', 1)
#define RPO_READ	_IO('c', 2)
#define RPO_WRITE	_IO('c', 3)
#define RPO_PORT	0x3b0

struct rpo_chan {
	const struct file_operations *ops;
	int hits;
};

static int rpo_back_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RPO_READ:
		return inb(RPO_PORT);
	case RPO_WRITE:
		outb(arg, RPO_PORT);
		return 0;
	}
	return -EINVAL;
}

static struct file_operations rpo_back_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rpo_back_ioctl,
};

static struct rpo_chan rpo_chans[2] = {
	{ .ops = &rpo_back_fops },
	{ .ops = NULL },
};
static int rpo_cur;

static int rpo_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct rpo_chan *ch;

	if (cmd == RPO_SEL) {
		rpo_cur = arg & 1;
		return 0;
	}
	ch = &rpo_chans[rpo_cur];
	if (!ch->ops)
		return -ENODEV;
	ch->hits++;
	return ch->ops->ioctl(inode, file, cmd, arg);
}

static struct file_operations rpo_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rpo_ioctl,
};

static struct miscdevice rpo_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_priv_ops",
	.fops	= &rpo_fops,
};

static struct miscdevice rpo_back_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_priv_back",
	.fops	= &rpo_back_fops,
};

static int __init rpo_init(void)
{
	int err = misc_register(&rpo_back_misc);

	return err ? err : misc_register(&rpo_misc);
}
module_init(rpo_init);
MODULE_LICENSE("GPL");
