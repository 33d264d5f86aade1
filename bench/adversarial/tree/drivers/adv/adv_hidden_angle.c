/*
 * adv_hidden_angle: a board value read and written only while ready.
 * Shape: returns hidden in lower-case statement macros of a tree header,
 * <linux/advboard.h> (a do/while one and a bare if one).
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/advboard.h>
#include <asm/uaccess.h>

#define HA_READY	_IOW('h', 1, int)
#define HA_SET		_IOW('h', 2, int)
#define HA_GET		_IOR('h', 3, int)

static struct advboard_info ha_board;

static int ha_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int v;

	switch (cmd) {
	case HA_READY:
		ha_board.ready = arg != 0;
		return 0;
	case HA_SET:
		adv_need_ready(&ha_board);
		if (get_user(v, (int __user *)arg))
			return -EFAULT;
		adv_check_range(v);
		ha_board.value = v;
		return 0;
	case HA_GET:
		adv_need_ready(&ha_board);
		return put_user(ha_board.value, (int __user *)arg);
	}
	return -ENOTTY;
}

static struct file_operations ha_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ha_ioctl,
};

static struct miscdevice ha_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_hidden_angle",
	.fops	= &ha_fops,
};

static int __init ha_init(void)
{
	return misc_register(&ha_misc);
}
module_init(ha_init);
MODULE_LICENSE("GPL");
