/*
 * adv_nested_loops: a table search over banks of registers.
 * Shape: nested loops with continue, break and a return from the inner
 * loop, a while loop with a return in its condition's body.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <asm/uaccess.h>

#define NL_FIND		_IOWR('n', 1, int)
#define NL_DRAIN	_IO('n', 2)
#define NL_BANK(b)	(0x500 + (b) * 0x10)

static int nl_table[4][4] = {
	{ 1, 2, 3, 4 }, { 5, 6, 0, 8 }, { 9, 10, 11, 12 }, { 0, 14, 15, 16 },
};

static int nl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int want, b, r, n = 0;

	switch (cmd) {
	case NL_FIND:
		if (get_user(want, (int __user *)arg))
			return -EFAULT;
		for (b = 0; b < 4; b++) {
			if (b == 2 && want < 0)
				continue;
			for (r = 0; r < 4; r++) {
				if (!nl_table[b][r])
					break;
				if (nl_table[b][r] == (want & 0xf)) {
					outb(r, NL_BANK(b));
					return put_user(b * 4 + r, (int __user *)arg) ? -EFAULT : 1;
				}
			}
		}
		return 0;
	case NL_DRAIN:
		while (n < 16) {
			if (inb(NL_BANK(0)) & 0x80)
				return n;
			n++;
		}
		return -ETIMEDOUT;
	}
	return -ENOTTY;
}

static struct file_operations nl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= nl_ioctl,
};

static struct miscdevice nl_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "adv_nested_loops",
	.fops	= &nl_fops,
};

static int __init nl_init(void)
{
	return misc_register(&nl_misc);
}
module_init(nl_init);
MODULE_LICENSE("GPL");
