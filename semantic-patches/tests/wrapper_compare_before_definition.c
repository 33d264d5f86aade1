// options: -D wrapper
// variant mutex: -D mutex
// variant multi: -D multi_kernel
/*
 * -D wrapper and a comparison of f_op->ioctl with a handler of the file
 * above the place its wrapper is defined (before the first entry that
 * names it): the comparison follows the entry to the wrapper, so the
 * wrapper is declared before the first function that compares with it,
 * or 'cf_fast_unlocked_ioctl' is undeclared (red_fwd_compare_own of the
 * adversarial measure, bkl-wrapper and mutex-wrapper: a compile break).
 * Spellings: ==, != with the handler first, in the handler itself, above
 * a fops assigned at run time, above a fops array; a comparison below the
 * fops needs nothing.
 */
#include <linux/fs.h>

static int cf_fast_ioctl(struct inode *, struct file *, unsigned int, unsigned long);
static int cg_ioctl(struct inode *, struct file *, unsigned int, unsigned long);
static int cr_ioctl(struct inode *, struct file *, unsigned int, unsigned long);
static int ca_ioctl(struct inode *, struct file *, unsigned int, unsigned long);

static int cf_mode(struct file *file)
{
	if (file->f_op->ioctl == cf_fast_ioctl)
		return 1;
	return 2;
}

static int cg_other(struct file *file)
{
	return cg_ioctl != file->f_op->ioctl;
}

static int cf_fast_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return cf_mode(file);
}

static int cg_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cg_other(file);
}

static int cs_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (file->f_op->ioctl != cs_ioctl)
		return -EINVAL;
	return 0;
}

static int cr_owned(struct file *file)
{
	return file->f_op->ioctl == cr_ioctl;
}

static int ca_owned(struct file *file)
{
	return file->f_op->ioctl == ca_ioctl;
}

static int cr_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cr_owned(file);
}

static int ca_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return ca_owned(file) + (int)arg;
}

static struct file_operations cf_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= cf_fast_ioctl,
};

static struct file_operations cg_fops = { .ioctl = cg_ioctl, };
static struct file_operations cs_fops = { .ioctl = cs_ioctl, };
static struct file_operations cr_fops;

static struct file_operations ca_fops[] = {
	{ .owner = THIS_MODULE, .ioctl = ca_ioctl, },
	{ .owner = THIS_MODULE, },
};

static int cf_later(struct file *file)
{
	return file->f_op->ioctl == cf_fast_ioctl;
}

static int __init cr_init(void)
{
	cr_fops.ioctl = cr_ioctl;
	return 0;
}
