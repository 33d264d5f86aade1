// Expected: auto_noreturn_interfaces.report.res (what report mode prints).
/*
 * Default-deny auto: the kernel's noreturn interfaces (do_exit(),
 * complete_and_exit(), panic(), BUG()) are read, by us, in every 2.6
 * tree: a case that ends in one hides no return, so each handler is
 * pushed down, outside a tree (here) as inside one.  A driver's own
 * helper of the same shape, not declared, is not read: the wrapper.
 */
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/completion.h>

#define NQ_STOP		0x4e01
#define NQ_PING		0x4e02

static struct completion nq_done;
static int nq_pings;

static int na_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case NQ_PING:
		return ++nq_pings;
	case NQ_STOP:
		do_exit(arg);
	}
	return -ENOTTY;
}

static int nb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == NQ_STOP)
		complete_and_exit(&nq_done, 0);
	return cmd == NQ_PING ? nq_pings : -ENOTTY;
}

static int nc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case NQ_STOP:
		if (arg)
			panic("nq: stop %lu", arg);
		BUG();
	default:
		return -ENOTTY;
	}
}

static int nd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == NQ_STOP)
		nd_exit_hard(arg);
	return -ENOTTY;
}

static struct file_operations na_fops = { .ioctl = na_ioctl, };
static struct file_operations nb_fops = { .ioctl = nb_ioctl, };
static struct file_operations nc_fops = { .ioctl = nc_ioctl, };
static struct file_operations nd_fops = { .ioctl = nd_ioctl, };
