// variant pushdown: -D pushdown
// variant mutex: -D mutex
/*
 * Default-deny auto outside a tree: a lower-case call whose value is used
 * may be a GNU statement-expression macro of an unread header that
 * returns from the handler, ({ int __r = (e); if (__r < 0) return __r;
 * __r; }), as the adversarial measure's red_ret_stmtexpr does with
 * <linux/redstack.h> (bkl-auto-notree and mutex-auto-notree: pushdown
 * left the lock held at that return, exit 0).  Each spelling, in an
 * initializer, on the right of an assignment, inside a returned
 * expression, as a condition, as an argument of another call and as the
 * value of a switch, gets the wrapper.  A function the file declares is
 * read: that handler keeps pushdown.
 */
#include <linux/fs.h>
#include <linux/redstack.h>

int sd_declared(int v);

static int sa_check(unsigned long arg)
{
	return arg > 2 ? -ERANGE : (int)arg;
}

static int sa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int v = stk_try(sa_check(arg));

	return v;
}

static int sb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int v;

	v = stk_try(sa_check(arg));
	return v + 1;
}

static int sc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return stk_try(sa_check(arg)) * 2;
}

static int sd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return sd_declared(sa_check(arg)) * 2;
}

static int se_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (stk_ready(arg))
		return -EBUSY;
	return 0;
}

static int sf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return sa_check(stk_value(arg));
}

static int sg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (stk_kind(arg)) {
	case 1:
		return 1;
	default:
		break;
	}
	return 0;
}

static int sh_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int err = 0;

	while (!err && stk_more (arg))
		err = sa_check(arg);
	return err;
}

static struct file_operations sa_fops = { .ioctl = sa_ioctl, };
static struct file_operations sb_fops = { .ioctl = sb_ioctl, };
static struct file_operations sc_fops = { .ioctl = sc_ioctl, };
static struct file_operations sd_fops = { .ioctl = sd_ioctl, };
static struct file_operations se_fops = { .ioctl = se_ioctl, };
static struct file_operations sf_fops = { .ioctl = sf_ioctl, };
static struct file_operations sg_fops = { .ioctl = sg_ioctl, };
static struct file_operations sh_fops = { .ioctl = sh_ioctl, };
