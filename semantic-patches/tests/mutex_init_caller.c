// options: -D mutex
// variant wrapper: -D wrapper
/*
 * With -D mutex, a handler called directly by the module's init or exit
 * function (a timer chip set up at load time, passing NULL for the inode
 * it never uses): that caller does not hold the private mutex, so the call
 * goes through the handler's own lock.  A pushdown converts (called from
 * an __init function, from the function module_init() names, from an
 * __exit function), and the call loses its inode.  Refused: the wrapper (-D wrapper: its body
 * would run without the mutex), a handler that a handler holding the mutex
 * calls too, a caller that is not the module's init or exit, and an init
 * function that a handler reaches.
 */
#include <linux/module.h>
#include <linux/fs.h>

static int ti_rate;

static int ta_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	ti_rate = (int)arg;
	return 0;
}

static int tb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return ti_rate + (int)arg;
}

static int tc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	ti_rate = 0;
	return 0;
}

static int td_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return ti_rate;
}

static int te_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return td_ioctl(inode, file, cmd, arg) + 1;
}

static int tf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return 2;
}

static void tf_helper(void)
{
	tf_ioctl(NULL, NULL, 0, 0);
}

static int tg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return 3;
}

static int tg_reset(void);

static int th_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return tg_reset();
}

static struct file_operations ta_fops = { .ioctl = ta_ioctl, };
static struct file_operations tb_fops = { .ioctl = tb_ioctl, };
static struct file_operations tc_fops = { .ioctl = tc_ioctl, };
static struct file_operations td_fops = { .ioctl = td_ioctl, };
static struct file_operations te_fops = { .ioctl = te_ioctl, };
static struct file_operations tf_fops = { .ioctl = tf_ioctl, };
static struct file_operations tg_fops = { .ioctl = tg_ioctl, };
static struct file_operations th_fops = { .ioctl = th_ioctl, };

static int __init ti_init(void)
{
	ta_ioctl(NULL, NULL, 0, 100);
	return 0;
}

static int __init td_probe(void)
{
	return td_ioctl(NULL, NULL, 0, 0);
}

static int tb_setup(void)
{
	ti_init();
	td_probe();
	tf_helper();
	return tb_ioctl((struct inode *)NULL, NULL, 0, 1);
}

static void __exit ti_exit(void)
{
	tc_ioctl(0, NULL, 0, 0);
}

static int __init tg_reset(void)
{
	return tg_ioctl(NULL, NULL, 0, 0);
}

module_init(tb_setup);
module_exit(ti_exit);
