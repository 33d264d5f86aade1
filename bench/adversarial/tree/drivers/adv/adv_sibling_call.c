/*
 * adv_sibling_call: a joystick and its calibration node; the calibration
 * node answers the joystick's commands too.
 * Shape: one legacy handler calls another legacy handler of the same file.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define SB_AXIS		_IO('j', 1)
#define SB_CAL		_IO('j', 2)
#define SB_PORT		0x201

static int sb_offset;

static int sb_joy_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd != SB_AXIS)
		return -ENOTTY;
	return (inb(SB_PORT) & 0x7f) + sb_offset;
}

static int sb_cal_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd == SB_CAL) {
		sb_offset = (int)(arg & 0xf);
		return 0;
	}
	return sb_joy_ioctl(inode, file, cmd, arg);
}

static struct file_operations sb_joy_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sb_joy_ioctl,
};

static struct file_operations sb_cal_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= sb_cal_ioctl,
};

static struct miscdevice sb_misc[] = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "adv_joy", .fops = &sb_joy_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "adv_joycal", .fops = &sb_cal_fops },
};

static int __init sb_init(void)
{
	int err = misc_register(&sb_misc[0]);

	return err ? err : misc_register(&sb_misc[1]);
}
module_init(sb_init);
MODULE_LICENSE("GPL");
