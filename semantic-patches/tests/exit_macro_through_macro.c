/*
 * VALIDATE_STATE does not say return itself: it returns through
 * VALIDATE_MAGIC, a statement expression that does.  A macro that names
 * a returning macro returns too, so auto picks the wrapper.
 */
#include <linux/fs.h>

#define VALIDATE_MAGIC(p, magic)			\
({							\
	if (!(p) || (p)->magic != (magic))		\
		return -ENXIO;				\
})
#define VALIDATE_STATE(s)	VALIDATE_MAGIC(s, DSP_STATE_MAGIC)

static int dsp_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct dsp_state *s = file->private_data;

	VALIDATE_STATE(s);
	if (cmd != SNDCTL_DSP_RESET)
		return -EINVAL;
	dsp_reset(s);
	return 0;
}

static struct file_operations dsp_fops = {
	.ioctl		= dsp_ioctl,
};
