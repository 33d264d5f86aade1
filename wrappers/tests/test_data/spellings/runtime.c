/* The entry is assigned at run time, through a pointer. */
#include <linux/fs.h>
void dev_reset(void);	/* the driver's helper, declared: read */
static struct file_operations rt_fops;

static int rt_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg)
{
	if (cmd != DEV_RESET)
		return -ENOTTY;
	dev_reset();
	return 0;
}

static int __init rt_init(void)
{
	struct file_operations *ops = &rt_fops;

	ops->owner = THIS_MODULE;
	ops->ioctl = rt_ioctl;	/* entry */
	return register_chrdev(RT_MAJOR, "rt", &rt_fops);
}
