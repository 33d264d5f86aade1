/*
 * red_ret_stmtexpr: a stacked filter whose value checks come from a
 * tree header.
 * Shape: a statement expression of <linux/redstack.h> that returns from
 * the handler, used in a declaration initializer (int v =
 * redstack_try(...);) and again in the body after a hardware write.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/redstack.h>
#include <asm/io.h>

#define RSE_PUT		_IO('q', 1)
#define RSE_GET		_IO('q', 2)

static int rse_cache;

static int rse_check(unsigned long arg)
{
	return arg > 2 ? -ERANGE : (int)arg;
}

static int rse_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int v = redstack_try(rse_check(arg));

	switch (cmd) {
	case RSE_PUT:
		outb(v, REDSTACK_PORT);
		rse_cache = redstack_try(rse_check(v + 2));
		return 0;
	case RSE_GET:
		return rse_cache + redstack_status();
	}
	return -ENOTTY;
}

static struct file_operations rse_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rse_ioctl,
};

static struct miscdevice rse_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_ret_stmtexpr",
	.fops	= &rse_fops,
};

static int __init rse_init(void)
{
	return misc_register(&rse_misc);
}
module_init(rse_init);
MODULE_LICENSE("GPL");
