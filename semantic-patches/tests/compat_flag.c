// options: -D compat
/*
 * -D compat: the ioctl ABI uses only fixed-size types, so the same entry
 * point serves 32-bit callers and .compat_ioctl is set as well.
 */
int adc_convert();
#include <linux/fs.h>
#include <linux/types.h>

struct adc_sample {
	__u32 channel;
	__s32 value;
};

#define ADC_READ	_IOWR('a', 1, struct adc_sample)

static int adc_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct adc_sample s;

	if (cmd != ADC_READ)
		return -ENOTTY;
	if (copy_from_user(&s, (void __user *)arg, sizeof(s)))
		return -EFAULT;
	s.value = adc_convert(s.channel);
	if (copy_to_user((void __user *)arg, &s, sizeof(s)))
		return -EFAULT;
	return 0;
}

static struct file_operations adc_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= adc_ioctl,
};
