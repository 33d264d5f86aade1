/*
 * A device table: an array of structures, each with the file_operations
 * of one minor initialized in place or written as a compound literal.
 */
#include <linux/fs.h>
#include <linux/module.h>

struct tbl_dev {
	const char *name;
	struct file_operations ops;
};

struct tbl_minor {
	const char *name;
	const struct file_operations *fops;
};

static int tbl_a_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return cmd == DEV_RESET ? 0 : -ENOTTY;
}

static int tbl_b_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int tbl_c_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static int tbl_d_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static struct tbl_dev tbl_devs[] = {
	{ .name = "a", .ops = { .owner = THIS_MODULE, .ioctl = tbl_a_ioctl } },	/* entry */
	{
		.name = "b",
		.ops = {
			.ioctl = tbl_b_ioctl,	/* entry */
		},
	},
	[2] = { "c", { ioctl: tbl_c_ioctl } },	/* entry */
};

static const struct tbl_minor tbl_minors[] = {
	{ "d", &(const struct file_operations){ .ioctl = tbl_d_ioctl } },	/* entry */
	{ "e", NULL },
};
