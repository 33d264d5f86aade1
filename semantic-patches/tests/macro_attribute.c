// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/*
 * Family "attribute" of semantic-patches/macros.h: a cleanup attribute
 * with an argument after a declarator, and an attribute that ends a
 * declaration.  Without the hints spatch cannot parse the handlers, and
 * neither -ENOIOCTLCMD is reported.
 */
#include <linux/fs.h>
#include <linux/random.h>
#include <linux/slab.h>

#define BUF_FILL	_IOW('B', 1, int)
#define SEED_GET	_IOR('B', 2, u32)

static long buf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd != BUF_FILL)
		return -ENOIOCTLCMD;

	u8 *page __free(kfree) = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	memset(page, arg, PAGE_SIZE);
	return 0;
}

static long seed_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	static const u8 boot_seed[4] __initconst __latent_entropy;

	if (cmd != SEED_GET)
		return -ENOIOCTLCMD;
	return copy_to_user((void __user *)arg, boot_seed, sizeof(boot_seed));
}

static const struct file_operations buf_fops = {
	.unlocked_ioctl	= buf_ioctl,
	.compat_ioctl	= buf_ioctl,
};

static const struct file_operations seed_fops = {
	.unlocked_ioctl	= seed_ioctl,
	.compat_ioctl	= seed_ioctl,
};
