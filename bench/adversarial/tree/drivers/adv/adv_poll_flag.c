/*
 * adv_poll_flag: a calibration that one caller starts and another waits for.
 * Shape: a sleeping poll loop (while (!flag) msleep(10);) on state that
 * another ioctl of the driver sets; under the BKL the sleeper lets it run.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/delay.h>

#define PF_WAIT		_IO('w', 1)
#define PF_DONE		_IO('w', 2)
#define PF_RESET	_IO('w', 3)

static int pf_done;
static int pf_rounds;

static int pf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PF_WAIT:
		while (!pf_done)
			msleep(10);
		return ++pf_rounds;
	case PF_DONE:
		pf_done = 1;
		return 0;
	case PF_RESET:
		pf_done = 0;
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations pf_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= pf_ioctl,
};

static struct miscdevice pf_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_poll_flag",
	.fops	= &pf_fops,
};

static int __init pf_init(void)
{
	return misc_register(&pf_misc);
}
module_init(pf_init);
MODULE_LICENSE("GPL");
