// options: -D inode_f_dentry
// variant wrapper: -D wrapper
/*
 * An inode whose every use is inside an #if of the body (a DEBUG printk,
 * both branches of an #ifdef, #if/#elif; any parameter names): a local inode would be unused wherever that
 * code is compiled out, so each use names the inode expression instead.
 * One use outside any #if keeps the local; so does a handler that is all
 * inside one #ifdef, where the local is compiled with its uses.
 */
int once_go();
int whole_go();
#include <linux/fs.h>
#include <linux/kernel.h>
void fp_go();
void dbg_go();
void both_go();

static int dbg_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
#ifdef DEBUG
	printk(KERN_DEBUG "dbg: minor %d cmd %u\n", iminor(inode), cmd);
#endif
	if (cmd != 1)
		return -ENOTTY;
	dbg_go();
	return 0;
}

static int both_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	both_go();
#if defined(CONFIG_BOTH_MINOR)
	return MINOR(inode->i_rdev);
#else
	return iminor(inode) + 1;
#endif
}

static int fp_ioctl(struct inode *ino, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	fp_go(filp);
#if FP_VERBOSE > 1
	if (MAJOR(ino->i_rdev) != FP_MAJOR)
		printk(KERN_WARNING "fp: major %d\n", imajor(ino));
#elif defined(FP_CHECK)
	BUG_ON(!ino);
#endif
	return 0;
}

static int once_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
#ifdef ONCE_DEBUG
	printk("once: %d\n", iminor(inode));
#endif
	return once_go(iminor(inode));
}

#ifdef CONFIG_WHOLE
static int whole_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return whole_go(iminor(inode));
}
#endif

static struct file_operations dbg_fops = {
	.ioctl		= dbg_ioctl,
};

static struct file_operations both_fops = {
	.ioctl		= both_ioctl,
};

static struct file_operations fp_fops = {
	.ioctl		= fp_ioctl,
};

static struct file_operations once_fops = {
	.ioctl		= once_ioctl,
};

#ifdef CONFIG_WHOLE
static struct file_operations whole_fops = {
	.ioctl		= whole_ioctl,
};
#endif
