/*
 * "ret" is a char: "ret = kb_rate * 1000 + kb_delay" would cut the
 * value down to a char, so the temporary is a fresh int; the char
 * itself is returned as it is, after the unlock.
 */
#include <linux/fs.h>

static int kb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	char ret = kb_last_key;

	if (cmd == KB_GET_RATE)
		return kb_rate * 1000 + kb_delay;
	return ret;
}

static struct file_operations kb_fops = {
	.ioctl		= kb_ioctl,
};
