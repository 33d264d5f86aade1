// variant mutex: -D mutex
// variant mutex_wrapper: -D mutex -D wrapper
// variant mutex_pushdown: -D mutex -D pushdown
/*
 * With -D mutex, a handler that may end the task while it holds the
 * private mutex is refused: the BKL was released when its holder exited
 * (or BUG() killed it), a mutex is not, and every later ioctl of the
 * device would wait for ever.  Each spelling: do_exit(code) as the last
 * statement of a case, BUG() inside an if, panic() after a printk, a
 * static helper of the file declared __attribute__((noreturn)), one
 * declared with 2.6's NORET_TYPE ... ATTRIB_NORET, BUG_ON(cond) (its taken
 * path ends the task), and BUG() in a helper of the file the handler
 * calls.  BUG_ON(0) never fires and WARN_ON() returns: that handler
 * converts.  Under the BKL every one converts (noreturn calls end a path).
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched.h>

#define ATTRIB_NORET	__attribute__((noreturn))
#define NORET_TYPE	/**/

static int nr_state;

static void nr_fatal(const char *why) __attribute__((noreturn));
NORET_TYPE static void nr_halt(int code) ATTRIB_NORET;

static void nr_fatal(const char *why)
{
	panic("nr: %s", why);
}

static void nr_halt(int code)
{
	do_exit(code);
}

static void nr_check(int v)
{
	if (v < 0)
		BUG();
}

static int na_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		nr_state = arg;
		return 0;
	case 2:
		do_exit(arg);
	}
	return -ENOTTY;
}

static int nb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (nr_state < 0)
		BUG();
	nr_state = arg;
	return 0;
}

static int nc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (arg == 3) {
		printk("nc: asked to crash\n");
		panic("nc: crash");
	}
	nr_state = arg;
	return 0;
}

static int nd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (arg > 3)
		nr_fatal("bad argument");
	nr_state = arg;
	return 0;
}

static int ne_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (arg > 3)
		nr_halt(arg);
	nr_state = arg;
	return 0;
}

static int nf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	BUG_ON(arg == 3);
	nr_state = arg;
	return 0;
}

static int ng_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	nr_check(arg);
	nr_state = arg;
	return 0;
}

static int nh_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	BUG_ON(0);
	WARN_ON(arg == 3);
	nr_state = arg;
	return 0;
}

static struct file_operations na_fops = { .ioctl = na_ioctl, };
static struct file_operations nb_fops = { .ioctl = nb_ioctl, };
static struct file_operations nc_fops = { .ioctl = nc_ioctl, };
static struct file_operations nd_fops = { .ioctl = nd_ioctl, };
static struct file_operations ne_fops = { .ioctl = ne_ioctl, };
static struct file_operations nf_fops = { .ioctl = nf_ioctl, };
static struct file_operations ng_fops = { .ioctl = ng_ioctl, };
static struct file_operations nh_fops = { .ioctl = nh_ioctl, };
