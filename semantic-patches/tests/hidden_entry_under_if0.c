/*
 * An entry under #if 0 (a 2.4 leftover naming the same handler) is never
 * compiled: it does not hold back the conversion of the entry beside it,
 * and it is left as it is.
 */
int buzzer_beep();
#include <linux/fs.h>

static int buzzer_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	return buzzer_beep(arg);
}

static struct file_operations buzzer_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= buzzer_ioctl,
#if 0
	ioctl:		buzzer_ioctl,
#endif
};
