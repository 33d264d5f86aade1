/*
 * adv_hidden_sound: a mixer control that is fixed while a stream runs.
 * Shape: SND_ADV_GUARD() of <sound/advsnd.h> returns -EBUSY, used twice,
 * once inside an if of a case.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/uaccess.h>
#include <sound/advsnd.h>

#define HS_START	_IO('s', 1)
#define HS_STOP		_IO('s', 2)
#define HS_VOLUME	_IOW('s', 3, int)

struct hs_chip {
	int streaming;
	int volume;
};
static struct hs_chip hs_chip;

static int hs_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct hs_chip *chip = &hs_chip;
	int vol;

	switch (cmd) {
	case HS_START:
		SND_ADV_GUARD(chip);
		chip->streaming = 1;
		break;
	case HS_STOP:
		chip->streaming = 0;
		break;
	case HS_VOLUME:
		if (get_user(vol, (int __user *)arg))
			return -EFAULT;
		if (vol != chip->volume)
			SND_ADV_GUARD(chip);
		chip->volume = vol;
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return 0;
}

static struct file_operations hs_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hs_ioctl,
};

static struct miscdevice hs_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_hidden_sound",
	.fops	= &hs_fops,
};

static int __init hs_init(void)
{
	return misc_register(&hs_misc);
}
module_init(hs_init);
MODULE_LICENSE("GPL");
