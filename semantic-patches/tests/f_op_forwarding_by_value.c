// rule: f_op_ioctl_forwarding.cocci
// variant legacy: -D legacy_ioctl
// A call through the member of a file_operations by value, not through a
// pointer (bench/adversarial red_fops_index_array: ports[n].ioctl(...)),
// follows the conversion as a pointer's does: ->unlocked_ioctl, or with
// -D legacy_ioctl the helper, handed the object's address.  Spellings: an
// array element by a computed index, a dereferenced call, a struct member
// by value, a plain object, a test beside a call.  Refused: NULL as the
// file (red_fwd_init_call), an object with no address (a call's value)
// under -D legacy_ioctl, a test through an index with a side effect
// under -D legacy_ioctl.  A run-time assignment by value is no site.
#include <linux/fs.h>

struct card {
	int id;
	struct file_operations fops;
};

static struct file_operations ports[3];
static struct file_operations single_fops;
static struct file_operations x_fops;
struct file_operations get_fops(int n);

static long by_index(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;

	return ports[arg % 3].ioctl(inode, file, cmd, 0) * 10;
}

static long dereferenced(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return (*ports[1].ioctl)(lower->f_dentry->d_inode, lower, cmd, arg);
}

static long member_by_value(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct card *card = file->private_data;
	struct file *lower = card_file(card);

	if (!card->fops.ioctl)
		return -ENOTTY;
	return card->fops.ioctl(file_inode(lower), lower, cmd, arg);
}

static long plain(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int ret;

	ret = single_fops.ioctl(lower->f_path.dentry->d_inode, lower, cmd, arg);
	return ret;
}

static int __init null_file(void)
{
	return single_fops.ioctl(NULL, NULL, 1, 0);
}

static long no_address(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return get_fops(2).ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
}

static long side_effect(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int i = 0;

	if (ports[i++].ioctl)
		return ports[i].ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
	return -ENOTTY;
}

static void setup(int fast)
{
	x_fops.ioctl = fast ? by_index_legacy : NULL;
	single_fops.ioctl = plain_legacy;
}
