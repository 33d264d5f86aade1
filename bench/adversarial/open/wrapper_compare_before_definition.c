// options: -D wrapper
/*
 * -D wrapper and a comparison of f_op->ioctl with a handler of the file,
 * above the handler (through its prototype): the comparison may follow
 * the conversion only with a name declared where it stands.  Today it is
 * rewritten to compare ->unlocked_ioctl with the wrapper, which is
 * defined after the fops, below the comparison, and has no prototype:
 * 'cf_fast_unlocked_ioctl' undeclared, a compile break (red_fwd_compare_own
 * of the adversarial measure, bkl-wrapper).  The wrapper's prototype goes
 * beside the handler's.
 */
#include <linux/fs.h>

static int cf_fast_ioctl(struct inode *, struct file *, unsigned int, unsigned long);

static int cf_mode(struct file *file)
{
	if (file->f_op->ioctl == cf_fast_ioctl)
		return 1;
	return 2;
}

static int cf_fast_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return cf_mode(file);
}

static struct file_operations cf_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= cf_fast_ioctl,
};
