// options: -D pushdown
/*
 * With -D pushdown the handler whose first statement is inside an #ifdef
 * is left alone, and the report says why.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>
void dsp_reset();

#define DSP_RESET	_IO('D', 0)

static int dsp_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int ret = 0;

#ifdef DSP_DEBUG
	printk(KERN_DEBUG "dsp: ioctl %08x\n", cmd);
#endif
	if (cmd != DSP_RESET)
		return -ENOTTY;
	dsp_reset();
	return ret;
}

static struct file_operations dsp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= dsp_ioctl,
};
