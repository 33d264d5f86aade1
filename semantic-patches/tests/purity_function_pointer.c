/*
 * A declaration claims the device through the chip's operations: a call
 * through a function pointer is never known to be pure, so it must stay
 * under the lock.  Auto splits it: the assignment follows the lock.
 */
#include <linux/fs.h>
void chip_command();

static int chip_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct chip *chip = file->private_data;
	int busy = chip->ops->claim(chip);

	if (busy)
		return busy;
	chip_command(chip, cmd, arg);
	chip->ops->release(chip);
	return 0;
}

static struct file_operations chip_fops = {
	.ioctl		= chip_ioctl,
};
