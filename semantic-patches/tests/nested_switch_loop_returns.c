/*
 * Returns from inside a for loop and a while loop nested in a switch nested
 * in a switch: each gets its unlock, and the braces it needs.
 */
#include <linux/fs.h>
#include <asm/uaccess.h>

static int nl_table[8] = { 3, 5, 7, 9, 11, 13, 15, 17 };

static int nl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int i;

	switch (cmd & 0xf0) {
	case 0:
		switch (cmd) {
		case 1:
			for (i = 0; i < 8; i++) {
				if (nl_table[i] > 8)
					return i;
			}
			break;
		case 2:
			i = 0;
			while (1) {
				if (i++ == 4)
					return -EAGAIN;
			}
		default:
			break;
		}
		printk(KERN_INFO "nl: fall out %u\n", cmd);
		return -EINVAL;
	case 0x10:
		for (i = 7; i >= 0; i--)
			if (nl_table[i] == 13)
				return nl_table[i];
	}
	return -ENOTTY;
}

static struct file_operations nl_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= nl_ioctl,
};
