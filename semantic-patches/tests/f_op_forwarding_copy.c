// rule: f_op_ioctl_forwarding.cocci
// variant legacy: -D legacy_ioctl
// A copy of the member into a variable is no test: the call through the
// copy (fn(inode, lower, cmd, arg)) cannot be followed to ->unlocked_ioctl,
// whether or not the function also calls through the member, so the
// function is refused (bench/adversarial red_fwd_local_fn, which was
// recorded as "tests ->ioctl").  Spellings: an assignment, an
// initializer, through a local fops, beside a call that would convert.
#include <linux/fs.h>

typedef int (*legacy_ioctl_t)(struct inode *, struct file *, unsigned int, unsigned long);

static int assigned(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	int (*fn)(struct inode *, struct file *, unsigned int, unsigned long);

	fn = lower->f_op->ioctl;
	if (!fn)
		return -ENOTTY;
	return fn(file_inode(lower), lower, cmd, arg);
}

static int initialized(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	const struct file_operations *fops = lower->f_op;
	legacy_ioctl_t fn = fops->ioctl;

	return fn ? fn(file_inode(lower), lower, cmd, arg) : -ENOTTY;
}

static int beside_a_call(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;
	legacy_ioctl_t fn;

	if (cmd == 1)
		return lower->f_op->ioctl(file_inode(lower), lower, cmd, arg);
	fn = lower->f_op->ioctl;
	return fn(file_inode(lower), lower, cmd, arg);
}
